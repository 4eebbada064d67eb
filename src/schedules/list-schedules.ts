/** `ferry schedules`: each scheduled pipeline with its cron, next tick, pause and last run. */
import type { Queue } from 'bullmq';
import type { FerryConfig } from '../config/index.js';
import type { RedisClient } from '../redis/index.js';
import { pipelineTargets } from '../pipeline/index.js';
import { deliveryKeys, lastRunOf, type LastRun } from '../runs/index.js';
import { schedulerId, type TickData } from './schedule-queue.js';
import { scheduledPipelines } from './sync-schedules.js';

export interface ScheduleView {
  pipeline: string;
  cron: string;
  tz: string;
  /** When the next tick is due (ISO); null while paused or not yet synced by a worker. */
  nextRunAt: string | null;
  paused: boolean;
  /** The newest of `lastRuns`. */
  lastRun?: LastRun;
  /**
   * The last run on each platform the file delivers to (a fan-out ticks each), in the file's order;
   * a platform that has not run yet is left out.
   */
  lastRuns: LastRun[];
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
    // A pipeline on another platform runs under its qualified name, a fan-out under each.
    const lastRuns: LastRun[] = [];
    for (const target of pipelineTargets(pipeline, config)) {
      const last = await lastRunOf(redis, keys, target);
      if (last) lastRuns.push(last);
    }
    const newest = lastRuns.reduce<LastRun | undefined>(
      (a, b) => (a === undefined || b.startedAt > a.startedAt ? b : a),
      undefined,
    );
    views.push({
      pipeline,
      cron: schedule.cron,
      tz: schedule.tz,
      nextRunAt: scheduler?.next ? new Date(scheduler.next).toISOString() : null,
      paused: paused.has(pipeline),
      ...(newest ? { lastRun: newest } : {}),
      lastRuns,
    });
  }
  return views;
}
