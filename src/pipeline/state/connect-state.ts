import { createRedis, type RedisClient, type RedisTarget } from '../../redis/connection.js';
import { StateUnavailableError } from '../errors.js';

/** host:port of a Redis URL, without credentials (for messages). */
export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'the configured URL';
  }
}

/**
 * A connection for a short command (`ferry plan`): it fails at once with StateUnavailableError
 * when Redis does not answer, instead of waiting for a reconnect as workers do.
 */
export async function connectState(target: string | RedisTarget): Promise<RedisClient> {
  const url = typeof target === 'string' ? target : target.url;
  const redis = createRedis(target, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    connectTimeout: 5_000,
  });
  redis.on('error', () => undefined); // reported through the failing command below
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw new StateUnavailableError(redisWhere(url), { cause: error });
  }
}
