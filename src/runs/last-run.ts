/**
 * The last run that stands for a pipeline under one name (its sync runs; an export pipeline's
 * exports: run-record.ts), as `ferry schedules` and `ferry platforms` list it.
 */
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';
import { recentRuns } from './run-index.js';
import type { RunStatus, Trigger } from './run-record.js';

export interface LastRun {
  /** The qualified name it ran under: `catalog`, `catalog@north` (docs/PLATFORMS.md). */
  pipeline: string;
  runId: string;
  status: RunStatus;
  trigger: Trigger;
  startedAt: string;
  finishedAt?: string;
  reason?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export async function lastRunOf(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<LastRun | undefined> {
  const [last] = await recentRuns(redis, keys, { pipeline, limit: 1, standing: true });
  if (!last) return undefined;
  return {
    pipeline,
    runId: last.id,
    status: last.status,
    trigger: last.trigger,
    startedAt: iso(last.createdAt),
    ...(last.finishedAt ? { finishedAt: iso(last.finishedAt) } : {}),
    ...(last.reason ? { reason: last.reason } : {}),
  };
}
