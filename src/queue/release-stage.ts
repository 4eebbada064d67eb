/**
 * Releasing a stage: its jobs move from the run's stage list to the lane's queue (as references:
 * their requests stay in the run's payload hash). One releaser at a time (a lease, redis/lease.ts);
 * it reads a chunk of ids, adds their jobs (queue job ids make a repeat a no-op), then trims them from
 * the list, so a releaser that dies midway leaves the rest for the next one (worker/supervisor.ts
 * looks for runs whose current stage was not fully released).
 */
import { type RedisClient, acquireLease, runScript } from '../redis/index.js';
import type { FerryConfig } from '../config/index.js';
import { type DeliveryJobData, type DeliveryKeys, type Lane, queueJobId } from '../runs/index.js';
import { activeTraceparent, inStageSpan } from './trace-context.js';
import { jobOptions, type DeliveryQueues } from './queues.js';
import { TRIM_RELEASED } from './scripts/trim-released.js';

const CHUNK = 1_000;
/**
 * The first chunk is small: BullMQ adds a chunk in one transaction, and no worker starts on the
 * stage before the first one is in (1,000 jobs took ~100 ms, the whole delivery waiting).
 */
const FIRST_CHUNK = 50;
/**
 * A releaser killed outright holds the stage up until its lease expires: short, as the lease is
 * renewed while the releaser lives.
 */
export const RELEASE_LEASE_MS = 6_000;

/** Removes a released chunk from the head of the stage list, unless it was removed already. */
export async function trimReleased(
  redis: RedisClient,
  list: string,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  await runScript(
    redis,
    TRIM_RELEASED,
    { stage: list },
    { firstId: ids[0] ?? '', length: ids.length },
  );
}

export interface ReleaseContext {
  redis: RedisClient;
  keys: DeliveryKeys;
  queues: DeliveryQueues;
  delivery: FerryConfig['delivery'];
}

export interface RunRef {
  id: string;
  pipeline: string;
  lane: Lane;
  /** The run's trace context (a settling job's `runTraceparent`); else the active span's. */
  traceparent?: string;
}

/** Releases the stage unless another process is doing it; true when this call released it. */
export async function releaseStage(
  ctx: ReleaseContext,
  run: RunRef,
  stage: number,
): Promise<boolean> {
  const { redis, keys } = ctx;
  const lease = await acquireLease(redis, keys.runReleaseLock(run.id), RELEASE_LEASE_MS);
  if (!lease) return false;
  // The stage's span is a child of the run's; its jobs' spans are the stage's children.
  const runTraceparent = run.traceparent ?? activeTraceparent();
  const attributes = {
    'ferry.run_id': run.id,
    'ferry.pipeline': run.pipeline,
    'ferry.stage': stage,
  };
  try {
    return await inStageSpan(runTraceparent, attributes, async (span) => {
      const list = keys.runStage(run.id, stage);
      const data: DeliveryJobData = { runId: run.id, pipeline: run.pipeline, stage };
      const traceparent = activeTraceparent();
      if (traceparent) data.traceparent = traceparent;
      if (runTraceparent) data.runTraceparent = runTraceparent;
      let released = 0;
      for (let chunk = FIRST_CHUNK; ; chunk = CHUNK) {
        // Another releaser took over: it goes on from where the list is.
        if (lease.lost) return false;
        const ids = await redis.lrange(list, 0, chunk - 1);
        if (ids.length === 0) break;
        await ctx.queues[run.lane].addBulk(
          ids.map((id) => ({
            name: 'deliver',
            data: { ...data, job: id },
            opts: jobOptions(ctx.delivery, queueJobId(run.id, id)),
          })),
        );
        await trimReleased(redis, list, ids);
        released += ids.length;
      }
      span.setAttribute('ferry.jobs', released);
      await redis.hset(keys.run(run.id), 'releasedStage', stage);
      return true;
    });
  } finally {
    await lease.release();
  }
}
