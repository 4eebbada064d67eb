/**
 * One run per pipeline: `<prefix>:{q}:active:<pipeline>` holds the active run's id. While the run is
 * being planned the key is a lease (a `ferry run` killed while planning frees the pipeline); once
 * the run starts, the key stays until the run's last job settles.
 */
import { type RedisClient, acquireLease } from '../redis/index.js';
import { RunActiveError, RunLockLostError } from './errors.js';
import type { DeliveryKeys } from './keys.js';

const PLANNING_LOCK_MS = 60_000;

export interface RunLock {
  /**
   * The run starts: the lock now lasts until the run finishes. Throws RunLockLostError when the
   * lease lapsed during planning, leaving the key to whichever run holds it now.
   */
  keep(): Promise<void>;
  /** The run did not start: frees the pipeline. */
  release(): Promise<void>;
}

export async function lockPipeline(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
  runId: string,
): Promise<RunLock> {
  const key = keys.activeRun(pipeline);
  const lease = await acquireLease(redis, key, PLANNING_LOCK_MS, runId);
  if (!lease) throw new RunActiveError(pipeline, (await redis.get(key)) ?? 'unknown');
  return {
    async keep() {
      if (!(await lease.keep())) throw new RunLockLostError(pipeline, runId);
    },
    release: () => lease.release(),
  };
}
