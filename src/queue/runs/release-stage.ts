/**
 * Releasing a stage: its jobs move from the run's stage list to the lane's queue (as references:
 * their requests stay in the run's payload hash). One releaser at a time (a lock with an expiry);
 * it reads a chunk of ids, adds their jobs (job ids make a repeat a no-op), then trims them from
 * the list, so a releaser that dies midway leaves the rest for the next one (worker/supervisor.ts
 * looks for runs whose current stage was not fully released).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { FerryConfig } from '../../config/schema.js';
import type { DeliveryKeys, Lane } from '../keys.js';
import { jobOptions, type DeliveryQueues } from '../queues.js';

const CHUNK = 1_000;
const LOCK_MS = 60_000;

export interface ReleaseContext {
  redis: Redis;
  keys: DeliveryKeys;
  queues: DeliveryQueues;
  delivery: FerryConfig['delivery'];
}

export interface RunRef {
  id: string;
  pipeline: string;
  lane: Lane;
}

/** Releases the stage unless another process is doing it; true when this call released it. */
export async function releaseStage(
  ctx: ReleaseContext,
  run: RunRef,
  stage: number,
): Promise<boolean> {
  const { redis, keys } = ctx;
  const lock = keys.runReleaseLock(run.id);
  const token = randomUUID();
  if ((await redis.set(lock, token, 'PX', LOCK_MS, 'NX')) !== 'OK') return false;
  try {
    const list = keys.runStage(run.id, stage);
    const data = { runId: run.id, pipeline: run.pipeline, stage };
    for (;;) {
      const ids = await redis.lrange(list, 0, CHUNK - 1);
      if (ids.length === 0) break;
      await ctx.queues[run.lane].addBulk(
        ids.map((id) => ({ name: 'deliver', data, opts: jobOptions(ctx.delivery, id) })),
      );
      await redis.multi().ltrim(list, ids.length, -1).pexpire(lock, LOCK_MS).exec();
    }
    await redis.hset(keys.run(run.id), 'releasedStage', stage);
    return true;
  } finally {
    if ((await redis.get(lock)) === token) await redis.del(lock);
  }
}
