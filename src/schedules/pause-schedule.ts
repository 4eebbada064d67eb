/**
 * Pausing a schedule for a maintenance window: its scheduler is removed and the pipeline is kept
 * in a paused set, so that no worker's sync puts it back until it is resumed.
 */
import type { Queue } from 'bullmq';
import type { FerryConfig } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import type { RedisClient } from '../redis/index.js';
import { deliveryKeys } from '../runs/index.js';
import { schedulerId, type TickData } from './schedule-queue.js';
import { scheduledPipelines, syncSchedules } from './sync-schedules.js';

function checkScheduled(config: FerryConfig, pipeline: string): void {
  const scheduled = [...scheduledPipelines(config).schedules.keys()];
  if (!scheduled.includes(pipeline)) {
    throw new UsageError(
      `No pipeline "${pipeline}" with a schedule; scheduled pipelines: ${scheduled.join(', ') || 'none'}.`,
    );
  }
}

export async function pauseSchedule(
  config: FerryConfig,
  redis: RedisClient,
  queue: Queue<TickData>,
  pipeline: string,
): Promise<void> {
  checkScheduled(config, pipeline);
  await redis.sadd(deliveryKeys(config.redis.prefix).pausedSchedules, pipeline);
  await queue.removeJobScheduler(schedulerId(pipeline));
}

export async function resumeSchedule(
  config: FerryConfig,
  redis: RedisClient,
  queue: Queue<TickData>,
  pipeline: string,
): Promise<void> {
  checkScheduled(config, pipeline);
  await redis.srem(deliveryKeys(config.redis.prefix).pausedSchedules, pipeline);
  await syncSchedules(config, redis, queue);
}
