import type { Queue } from 'bullmq';

/**
 * Without an `error` listener BullMQ prints each connection error with its stack: a lost Redis
 * reaches the caller through the commands that fail, and wait-for-redis.ts logs it once.
 */
export function quiet<T extends Queue>(queue: T): T {
  queue.on('error', () => undefined);
  return queue;
}
