/**
 * The last reconciliation of each pipeline, kept in Redis (`<prefix>:reconcile:last`, pipeline ->
 * JSON) for the console and `/metrics` (ferry_drift_entities).
 */
import type { RedisClient } from '../redis/index.js';
import { lastReconciliationKey } from './keys.js';

export interface LastReconciliation {
  pipeline: string;
  /** When it ended (ms since the epoch). */
  at: number;
  seconds: number;
  checked: number;
  missing: number;
  different: number;
  unknown: number;
  /** The CSV of differences, when any. */
  csv?: string;
  /** The run a `--repair` started. */
  repairRunId?: string;
}

export async function recordReconciliation(
  redis: RedisClient,
  prefix: string,
  last: LastReconciliation,
): Promise<void> {
  await redis.hset(lastReconciliationKey(prefix), last.pipeline, JSON.stringify(last));
}

/** Every pipeline's last reconciliation, by pipeline name. */
export async function readLastReconciliations(
  redis: RedisClient,
  prefix: string,
): Promise<LastReconciliation[]> {
  const all = await redis.hgetall(lastReconciliationKey(prefix));
  return Object.keys(all)
    .sort()
    .map((pipeline) => JSON.parse(all[pipeline] as string) as LastReconciliation);
}
