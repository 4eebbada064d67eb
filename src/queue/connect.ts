import type { Redis } from 'ioredis';
import { connectState } from '../pipeline/state/connect-state.js';
import { createRedis } from '../redis/connection.js';

/**
 * A connection for delivery (queues, runs, dead letters): checked first, so a command fails at once
 * with FERRY_REDIS_UNAVAILABLE and what to do when Redis does not answer; afterwards it waits
 * through reconnects, as BullMQ needs.
 */
export async function connectDelivery(url: string): Promise<Redis> {
  const probe = await connectState(url);
  probe.disconnect();
  return createRedis(url);
}
