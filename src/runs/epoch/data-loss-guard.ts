/**
 * After Redis lost its data, the next run of each pipeline would resend everything it ever
 * delivered (its state went with the data). Such a run stops before anything is sent, saying
 * how much it would resend and the ways out, until the operator chooses `--resend-all` for it.
 */
import type { RedisClient } from '../../redis/index.js';
import type { Plan } from '../../pipeline/index.js';
import { StateLostError } from '../errors.js';
import type { DeliveryKeys } from '../keys.js';
import { readDataLoss, type DataLoss } from './installation-epoch.js';

/** The loss that stops this pipeline's runs, or undefined when there is none (or it was chosen). */
export async function pendingDataLoss(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<DataLoss | undefined> {
  const loss = await readDataLoss(redis, keys);
  return loss && !loss.resent.includes(pipeline) ? loss : undefined;
}

/** Throws StateLostError when a plan with something to send follows a loss not yet chosen for. */
export async function guardDataLoss(
  redis: RedisClient,
  keys: DeliveryKeys,
  plan: Plan,
  requests: number,
  resendAll: boolean,
): Promise<DataLoss | undefined> {
  const loss = await pendingDataLoss(redis, keys, plan.pipeline);
  if (!loss || resendAll) return loss;
  const items = Object.values(plan.operations).reduce((n, op) => n + op.items, 0);
  if (items === 0) return loss;
  throw new StateLostError(plan.pipeline, loss, items, requests);
}
