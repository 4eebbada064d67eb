/**
 * Keeps the BullMQ job schedulers in step with the pipeline files: one per scheduled pipeline
 * that is not paused, none for a pipeline whose schedule (or file) went. A pipeline file that
 * does not load keeps the scheduler it had: a typo must not quietly cancel the nightly run (its
 * ticks record the error instead).
 */
import type { Queue } from 'bullmq';
import type { FerryConfig } from '../config/index.js';
import { isFerryError } from '../errors/index.js';
import {
  loadAnyPipeline,
  pipelineNames,
  pipelineTargets,
  type Schedule,
} from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import { deliveryKeys } from '../runs/index.js';
import { pipelineOfScheduler, schedulerId, type TickData } from './schedule-queue.js';

export interface SyncResult {
  /** Pipelines whose scheduler is in place. */
  scheduled: string[];
  /** Pipelines whose scheduler was removed (schedule gone, file gone, or paused). */
  removed: string[];
  /** Pipeline files that could not be read, with the reason. */
  problems: Array<{ pipeline: string; message: string }>;
}

/** The schedule of each pipeline file that has one; files that fail to load go to `problems`. */
export function scheduledPipelines(config: FerryConfig): {
  schedules: Map<string, Schedule>;
  problems: SyncResult['problems'];
} {
  const schedules = new Map<string, Schedule>();
  const problems: SyncResult['problems'] = [];
  for (const name of pipelineNames(config)) {
    try {
      // A fan-out's platforms share its file's schedule; its tick runs each (schedule-worker.ts).
      const [first = name] = pipelineTargets(name, config);
      const schedule = loadAnyPipeline(first, config).definition.schedule;
      if (schedule) schedules.set(name, schedule);
    } catch (error) {
      if (!isFerryError(error)) throw error;
      problems.push({ pipeline: name, message: error.message });
    }
  }
  return { schedules, problems };
}

export async function syncSchedules(
  config: FerryConfig,
  redis: RedisClient,
  queue: Queue<TickData>,
): Promise<SyncResult> {
  const keys = deliveryKeys(config.redis.prefix);
  const paused = new Set(await redis.smembers(keys.pausedSchedules));
  const { schedules, problems } = scheduledPipelines(config);
  const unreadable = new Set(problems.map((p) => p.pipeline));
  const scheduled: string[] = [];
  for (const [pipeline, schedule] of schedules) {
    if (paused.has(pipeline)) continue;
    scheduled.push(pipeline);
    // Upserting an unchanged scheduler would replace a tick that is due but not yet taken (every
    // worker was down) by the next one: the missed run would never happen.
    const current = await queue.getJobScheduler(schedulerId(pipeline));
    if (current?.pattern === schedule.cron && current.tz === schedule.tz) continue;
    await queue.upsertJobScheduler(
      schedulerId(pipeline),
      { pattern: schedule.cron, tz: schedule.tz },
      { name: 'tick', data: { pipeline } },
    );
  }
  const removed: string[] = [];
  for (const existing of await queue.getJobSchedulers()) {
    const pipeline = pipelineOfScheduler(existing.key);
    if (pipeline === undefined || unreadable.has(pipeline)) continue;
    if (!scheduled.includes(pipeline)) {
      await queue.removeJobScheduler(existing.key);
      removed.push(pipeline);
    }
  }
  return { scheduled, removed, problems };
}
