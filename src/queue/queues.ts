/** The delivery queues, one per lane, and the options every delivery job is added with. */
import { Queue, type JobsOptions } from 'bullmq';
import { type RedisClient, quiet } from '../redis/index.js';
import type { FerryConfig } from '../config/index.js';
import {
  type DeliveryJobData,
  LANES,
  queueName,
  type DeliveryKeys,
  type Lane,
} from '../runs/index.js';

/** The name of the custom backoff strategy (worker/backoff.ts) the workers register. */
export const BACKOFF_TYPE = 'ferry';

export type DeliveryQueues = Record<Lane, Queue<DeliveryJobData>> & { close(): Promise<void> };

export function openQueues(redis: RedisClient, keys: DeliveryKeys): DeliveryQueues {
  const queues = Object.fromEntries(
    LANES.map((lane) => [
      lane,
      quiet(
        new Queue<DeliveryJobData>(queueName(lane), { connection: redis, prefix: keys.bullPrefix }),
      ),
    ]),
  ) as Record<Lane, Queue<DeliveryJobData>>;
  return {
    ...queues,
    async close() {
      await Promise.all(LANES.map((lane) => queues[lane].close()));
    },
  };
}

export function jobOptions(delivery: FerryConfig['delivery'], jobId: string): JobsOptions {
  return {
    jobId,
    attempts: delivery.attempts,
    backoff: { type: BACKOFF_TYPE },
    // A settled job's outcome is in its run; the newest are kept for the queue board only (its
    // id is scoped to its run: a later run's job for the same change is never refused). A job
    // that failed in a way the worker did not handle stays, for the supervisor to dead-letter
    // (worker/supervisor.ts).
    removeOnComplete: delivery.keepCompletedJobs > 0 ? { count: delivery.keepCompletedJobs } : true,
    removeOnFail: false,
  };
}
