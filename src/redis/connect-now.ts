import { createRedis, type RedisClient, type RedisTarget } from './connection.js';
import { RedisUnavailableError, redisWhere } from './redis-unavailable.js';

/**
 * A connection for a one-shot command (`ferry plan`, `ferry status`): it fails at once with
 * RedisUnavailableError (exit code 5) naming `need` when Redis does not answer, instead of waiting
 * for a reconnect as the long-running processes do (wait-for-redis.ts).
 */
export async function connectNow(target: string | RedisTarget, need: string): Promise<RedisClient> {
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
    throw new RedisUnavailableError(redisWhere(url), need, { cause: error });
  }
}
