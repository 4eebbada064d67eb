/**
 * Webhooks to call, as BullMQ jobs: a run's ending becomes one job per webhook that asked for it,
 * retried with backoff by whichever worker takes it, so delivery never waits on a receiver.
 */
import { quiet, type RedisClient } from '../../redis/index.js';
import { Queue } from 'bullmq';
import type { DeliveryKeys } from '../keys.js';

export const NOTIFY_QUEUE = 'notifications';

export interface NotifyJobData {
  url: string;
  event: string;
  /** The JSON body, as sent (and signed). */
  body: string;
}

export function openNotifyQueue(redis: RedisClient, keys: DeliveryKeys): Queue<NotifyJobData> {
  return quiet(
    new Queue<NotifyJobData>(NOTIFY_QUEUE, { connection: redis, prefix: keys.bullPrefix }),
  );
}
