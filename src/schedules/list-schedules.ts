/** `ferry schedules`: each scheduled pipeline with its cron, next tick, pause and last run. */
import type { Queue } from 'bullmq';
import type { FerryConfig } from '../config/index.js';
import type { RedisClient } from '../redis/index.js';
import { deliveryKeys, recentRuns, type RunStatus, type Trigger } from '../runs/index.js';
import { schedulerId, type TickData } from './schedule-queue.js';
import { scheduledPipelines } from './sync-schedules.js';

export interface ScheduleView {
  pipeline: string;
  cron: string;
  tz: string;
  /** When the next tick is due (ISO); null while paused or not yet synced by a worker. */
  nextRunAt: string | null;
  paused: boolean;
  lastRun?: {
    runId: string;
    status: RunStatus;
    trigger: Trigger;
    startedAt: string;
    finishedAt?: string;
    reason?: string;
  };
}

export async function listSchedules(
  config: FerryConfig,
  redis: RedisClient,
  queue: Queue<TickData>,
): Promise<ScheduleView[]> {
  const keys = deliveryKeys(config.redis.prefix);
  const paused = new Set(await redis.smembers(keys.pausedSchedules));
  const views: ScheduleView[] = [];
  for (const [pipeline, schedule] of scheduledPipelines(config).schedules) {
    const scheduler = await queue.getJobScheduler(schedulerId(pipeline));
    const [last] = await recentRuns(redis, keys, { pipeline, limit: 1, standing: true });
    const view: ScheduleView = {
      pipeline,
      cron: schedule.cron,
      tz: schedule.tz,
      nextRunAt: scheduler?.next ? new Date(scheduler.next).toISOString() : null,
      paused: paused.has(pipeline),
    };
    if (last) {
      view.lastRun = {
        runId: last.id,
        status: last.status,
        trigger: last.trigger,
        startedAt: new Date(last.createdAt).toISOString(),
        ...(last.finishedAt ? { finishedAt: new Date(last.finishedAt).toISOString() } : {}),
        ...(last.reason ? { reason: last.reason } : {}),
      };
    }
    views.push(view);
  }
  return views;
}
