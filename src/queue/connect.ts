import { connectState } from '../pipeline/state/connect-state.js';
import { createRedis, type RedisClient, type RedisTarget } from '../redis/connection.js';

/**
 * A connection for delivery (queues, runs, dead letters): checked first, so a command fails at once
 * with FERRY_REDIS_UNAVAILABLE and what to do when Redis does not answer; afterwards it waits
 * through reconnects, as BullMQ needs.
 */
export async function connectDelivery(target: string | RedisTarget): Promise<RedisClient> {
  const probe = await connectState(target);
  probe.disconnect();
  return createRedis(target);
}
