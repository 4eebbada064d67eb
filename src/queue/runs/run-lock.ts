/**
 * One run per pipeline: `<prefix>:{q}:active:<pipeline>` holds the active run's id. While the run is
 * being planned the key has an expiry that a timer keeps renewing (a `ferry run` killed while
 * planning frees the pipeline); once the run starts, the key stays until the run's last job settles.
 */
import type { Redis } from 'ioredis';
import { RunActiveError } from '../errors.js';
import type { DeliveryKeys } from '../keys.js';

const PLANNING_LOCK_MS = 60_000;

export interface RunLock {
  /** The run started: the lock now lasts until the run finishes. */
  keep(): Promise<void>;
  /** The run did not start: frees the pipeline. */
  release(): Promise<void>;
}

export async function lockPipeline(
  redis: Redis,
  keys: DeliveryKeys,
  pipeline: string,
  runId: string,
): Promise<RunLock> {
  const key = keys.activeRun(pipeline);
  if ((await redis.set(key, runId, 'PX', PLANNING_LOCK_MS, 'NX')) !== 'OK') {
    throw new RunActiveError(pipeline, (await redis.get(key)) ?? 'unknown');
  }
  const renew = setInterval(() => {
    void redis.get(key).then((holder) => {
      if (holder === runId) return redis.pexpire(key, PLANNING_LOCK_MS);
      return undefined;
    });
  }, PLANNING_LOCK_MS / 3);
  renew.unref();
  return {
    async keep() {
      clearInterval(renew);
      await redis.persist(key);
    },
    async release() {
      clearInterval(renew);
      if ((await redis.get(key)) === runId) await redis.del(key);
    },
  };
}
