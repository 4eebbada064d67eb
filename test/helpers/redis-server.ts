/** A redis-server of the test's own, for tests that stop or restart Redis (src/redis/private-redis.ts). */
import { startPrivateRedis, type PrivateRedis } from '../../src/redis/private-redis.js';
import { requireBinary } from './binaries.js';

export { freePort, type PrivateRedis } from '../../src/redis/private-redis.js';

/**
 * Starts one on `port` (default a free one: give the old one's to restart it empty, and the old
 * one's `dataDir` too to restart it with its data); throws naming its package when redis-server
 * is not installed, or when it does not answer.
 */
export async function startRedisServer(
  extraArgs: string[] = [],
  port?: number,
  dataDir?: string,
): Promise<PrivateRedis> {
  requireBinary('redis-server');
  const server = await startPrivateRedis(extraArgs, port, dataDir);
  if (!server) throw new Error(`redis-server did not answer PING on port ${port ?? '(free)'}`);
  return server;
}
