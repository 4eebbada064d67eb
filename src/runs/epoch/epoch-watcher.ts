/**
 * Watches the installation's epoch from a long-running process (a worker, a waiting `ferry run`):
 * every `intervalMs` it compares Redis's epoch with the one it knew, and calls `onLoss` once per
 * loss. A Redis that does not answer is not a loss: the check waits for the next tick.
 */
import { hostname } from 'node:os';
import type { RedisClient } from '../../redis/index.js';
import type { DeliveryKeys } from '../keys.js';
import { checkEpoch, ensureEpoch, type Epoch } from './installation-epoch.js';

export interface EpochLoss {
  lost: Epoch;
  epoch: Epoch;
  /** This process recorded the loss (the others noticed it too, or found it recorded). */
  isNew: boolean;
}

export interface EpochWatcher {
  /** Checks now (also what each tick does); resolves to the loss when there was one. */
  check(): Promise<EpochLoss | undefined>;
  stop(): void;
}

export const PROCESS_NAME = `${hostname()}:${process.pid}`;

export async function watchEpoch(
  redis: RedisClient,
  keys: DeliveryKeys,
  intervalMs: number,
  onLoss: (loss: EpochLoss) => void,
): Promise<EpochWatcher> {
  let known = await ensureEpoch(redis, keys);
  let checking: Promise<EpochLoss | undefined> | undefined;
  const check = (): Promise<EpochLoss | undefined> => {
    checking ??= (async () => {
      try {
        const result = await checkEpoch(redis, keys, known, PROCESS_NAME);
        known = result.epoch;
        if (!result.lost) return undefined;
        const loss = { lost: result.lost, epoch: result.epoch, isNew: result.isNew };
        onLoss(loss);
        return loss;
      } finally {
        checking = undefined;
      }
    })();
    return checking;
  };
  const timer = setInterval(() => void check().catch(() => undefined), intervalMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
