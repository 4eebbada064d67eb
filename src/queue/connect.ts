import { connectNow, createRedis, type RedisClient, type RedisTarget } from '../redis/index.js';

/**
 * A connection for delivery (queues, runs, dead letters): checked first, so a command fails at once
 * with FERRY_REDIS_UNAVAILABLE (exit code 5) naming `need` when Redis does not answer; afterwards it
 * waits through reconnects, as BullMQ needs.
 */
export async function connectDelivery(
  target: string | RedisTarget,
  need: string,
): Promise<RedisClient> {
  const probe = await connectNow(target, need);
  probe.disconnect();
  return createRedis(target);
}
