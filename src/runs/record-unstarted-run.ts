/**
 * A run that started nothing is kept as a finished run with its reason, so `ferry runs`, the
 * console and a schedule's history show why: a schedule tick that was skipped (the previous run
 * still going, a source that could not be read), or a run refused before planning (a breaking
 * change to the platform's description: contract/record-refusal.ts).
 */
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys, Lane } from './keys.js';
import { countRunEnd } from './metrics/metric-fields.js';
import { RETENTION_S } from './finish-run.js';
import { indexRun } from './run-index.js';
import { newRunId } from './run-id.js';
import type { Trigger } from './run-record.js';

export interface UnstartedRun {
  pipeline: string;
  lane: Lane;
  trigger: Trigger;
  reason: string;
  startedBy?: string;
  file?: string;
  scheduledAt?: number;
  lateSeconds?: number;
}

/** Records the run as `status` with nothing planned; `extra` fields join its record. Its id. */
export async function recordUnstartedRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  run: UnstartedRun,
  status: 'skipped' | 'failed',
  extra: Record<string, string> = {},
): Promise<string> {
  const runId = newRunId(run.pipeline);
  const now = Date.now();
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline: run.pipeline,
    kind: 'sync',
    trigger: run.trigger,
    lane: run.lane,
    status,
    reason: run.reason,
    version: 0,
    rows: 0,
    rejected: 0,
    createdAt: now,
    finishedAt: now,
    stages: '[]',
    ...extra,
  };
  if (run.startedBy) fields.startedBy = run.startedBy;
  if (run.file) fields.file = run.file;
  if (run.scheduledAt !== undefined) fields.scheduledAt = run.scheduledAt;
  if (run.lateSeconds !== undefined) fields.lateSeconds = run.lateSeconds;
  const multi = redis.multi().hset(keys.run(runId), fields).expire(keys.run(runId), RETENTION_S);
  countRunEnd(multi, keys.metrics, { pipeline: run.pipeline, status, kind: 'sync' });
  await indexRun(multi, keys, { id: runId, pipeline: run.pipeline }, now).exec();
  return runId;
}
