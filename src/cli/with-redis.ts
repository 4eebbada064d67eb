import type { RedisClient } from '../redis/index.js';

/**
 * Runs `work` with the Redis connection `connect` makes (delivery's `connectDelivery`, or a short
 * command's `connectState`, both failing at once when Redis does not answer) and closes it after,
 * however `work` ends.
 */
export async function withRedis<T>(
  connect: () => Promise<RedisClient>,
  work: (redis: RedisClient) => Promise<T>,
): Promise<T> {
  const redis = await connect();
  try {
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}
