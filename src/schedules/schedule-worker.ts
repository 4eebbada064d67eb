/**
 * The workers' side of schedules: at start, the job schedulers are brought in step with the
 * pipeline files; each tick (one BullMQ job per tick, whatever the number of workers) starts a
 * run of its pipeline, or records a skipped run saying why not. Ticks missed while every worker
 * was down come as one job, run once, late; the run records by how much.
 */
import { Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { FerryConfig } from '../config/schema.js';
import { isFerryError } from '../errors/index.js';
import { createRedis, type RedisClient } from '../redis/connection.js';
import { RunActiveError } from '../queue/errors.js';
import { deliveryKeys, SCHEDULE_QUEUE } from '../queue/keys.js';
import { recordSkippedRun } from '../queue/runs/record-skipped-run.js';
import { laneOf, startRun } from '../queue/runs/start-run.js';
import { openScheduleQueue, type TickData } from './schedule-queue.js';
import { syncSchedules, type SyncResult } from './sync-schedules.js';

/** A run that starts this much after its tick records how late it was. */
const LATE_AFTER_S = 5;

export interface ScheduleWorker {
  readonly synced: SyncResult;
  close(): Promise<void>;
}

async function tick(
  job: Job<TickData>,
  config: FerryConfig,
  redis: RedisClient,
  logger: Logger,
): Promise<void> {
  const { pipeline } = job.data;
  // A scheduler's job is created ahead of its tick and delayed until it.
  const scheduledAt = job.timestamp + (job.opts.delay ?? 0);
  const late = (Date.now() - scheduledAt) / 1000;
  const timing = {
    scheduledAt,
    ...(late >= LATE_AFTER_S ? { lateSeconds: Math.round(late) } : {}),
  };
  const log = logger.child({ pipeline, scheduledAt: new Date(scheduledAt).toISOString() });
  try {
    const started = await startRun({
      config,
      redis,
      logger: log,
      pipeline,
      trigger: 'schedule',
      ...timing,
    });
    log.info({ runId: started.runId, ...timing }, 'scheduled run started');
  } catch (error) {
    if (!isFerryError(error)) throw error;
    const reason =
      error instanceof RunActiveError
        ? `the previous run ${String(error.details.runId)} is still going`
        : `${error.code}: ${error.message}`;
    const runId = await recordSkippedRun(redis, deliveryKeys(config.redis.prefix), {
      pipeline,
      lane: laneOf(config, pipeline),
      trigger: 'schedule',
      reason,
      ...timing,
    });
    log.warn({ runId, reason }, 'scheduled run skipped');
  }
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
  const worker = new Worker<TickData>(
    SCHEDULE_QUEUE,
    async (job) => await tick(job, config, redis, logger),
    { connection: redis, prefix: keys.bullPrefix, concurrency: 4 },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'schedule worker error'));
  return {
    synced,
    async close() {
      await worker.close();
      await queue.close();
      await redis.quit();
    },
  };
}
