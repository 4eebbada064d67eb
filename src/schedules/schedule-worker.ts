/**
 * The workers' side of schedules: at start, the job schedulers are brought in step with the
 * pipeline files; each tick (one BullMQ job per tick, whatever the number of workers) starts a
 * run of its pipeline, or records a skipped run saying why not. Ticks missed while every worker
 * was down come as one job, run once, late; the run records by how much. A pipeline with
 * `schedule.pickup` takes tonight's export out of its folder (tick-pickup.ts) or off its SFTP
 * server or S3 bucket (tick-remote-pickup.ts); a URL source is
 * fetched only when it changed (tick-url.ts).
 */
import { onWorkerError, createRedis } from '../redis/index.js';
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { FerryConfig } from '../config/index.js';
import { isFerryError } from '../errors/index.js';
import { loadAnyPipeline, pipelineTargets } from '../pipeline/index.js';
import { deliveryKeys, SCHEDULE_QUEUE } from '../runs/index.js';
import { openScheduleQueue, type TickData } from './schedule-queue.js';
import { syncSchedules, type SyncResult } from './sync-schedules.js';
import { pickUpExports } from './tick-pickup.js';
import { pickUpRemoteExports } from './tick-remote-pickup.js';
import { exportOrSkip, recordSkip, skipReason, startOrSkip, type TickContext } from './tick-run.js';
import { fetchIfChanged } from './tick-url.js';

/** A run that starts this much after its tick records how late it was. */
const LATE_AFTER_S = 5;

export interface ScheduleWorker {
  readonly synced: SyncResult;
  close(): Promise<void>;
}

async function tick(
  job: Job<TickData>,
  base: Omit<TickContext, 'pipeline' | 'timing' | 'logger'>,
  logger: Logger,
): Promise<void> {
  const { pipeline } = job.data;
  // A scheduler's job is created ahead of its tick and delayed until it.
  const scheduledAt = job.timestamp + (job.opts.delay ?? 0);
  const late = (Date.now() - scheduledAt) / 1000;
  const ctx: TickContext = {
    ...base,
    pipeline,
    timing: { scheduledAt, ...(late >= LATE_AFTER_S ? { lateSeconds: Math.round(late) } : {}) },
    logger: logger.child({ pipeline, scheduledAt: new Date(scheduledAt).toISOString() }),
  };
  let targets: string[];
  try {
    targets = pipelineTargets(pipeline, ctx.config);
  } catch (error) {
    if (!isFerryError(error)) throw error;
    await recordSkip(ctx, skipReason(error));
    return;
  }
  // A pipeline that fans out to several platforms ticks once per platform (docs/PLATFORMS.md).
  for (const target of targets) {
    const logged = logger.child({
      pipeline: target,
      scheduledAt: new Date(scheduledAt).toISOString(),
    });
    await tickOne({ ...ctx, pipeline: target, logger: logged });
  }
}

async function tickOne(ctx: TickContext): Promise<void> {
  let loaded;
  try {
    loaded = loadAnyPipeline(ctx.pipeline, ctx.config);
  } catch (error) {
    if (!isFerryError(error)) throw error;
    await recordSkip(ctx, skipReason(error));
    return;
  }
  if (loaded.direction === 'export') {
    await exportOrSkip(ctx);
    return;
  }
  const definition = loaded.definition;
  const pickup = definition.schedule?.pickup;
  const { sftp, s3 } = definition.source;
  if (pickup && (sftp || s3)) await pickUpRemoteExports(ctx, pickup, sftp ? { sftp } : { s3: s3! });
  else if (pickup) await pickUpExports(ctx, pickup);
  else if (definition.source.url) await fetchIfChanged(ctx, definition.source.url);
  else await startOrSkip(ctx);
}

export async function startScheduleWorker(options: {
  config: FerryConfig;
  logger: Logger;
}): Promise<ScheduleWorker> {
  const { config, logger } = options;
  const keys = deliveryKeys(config.redis.prefix);
  const redis = createRedis(config.redis);
  const queue = openScheduleQueue(redis, keys);
  const synced = await syncSchedules(config, redis, queue);
  for (const problem of synced.problems) {
    logger.error(problem, 'pipeline file not read: its schedule is left as it was');
  }
  logger.info({ scheduled: synced.scheduled, removed: synced.removed }, 'schedules synced');
  // Closing stops following runs (they go on in the delivery workers), not planning them.
  const stop = new AbortController();
  const worker = new Worker<TickData>(
    SCHEDULE_QUEUE,
    async (job) => await tick(job, { config, redis, keys, signal: stop.signal }, logger),
    { connection: redis, prefix: keys.bullPrefix, concurrency: 4 },
  );
  worker.on('error', onWorkerError(logger, 'schedule worker error'));
  return {
    synced,
    async close() {
      stop.abort();
      await worker.close();
      await queue.close();
      await redis.quit();
    },
  };
}
