/**
 * A tick of a schedule that started nothing (the previous run still going, a source that could
 * not be read) is kept as a run with status skipped and its reason, so `ferry runs` shows it.
 */
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys, Lane } from './keys.js';
import { countRunEnd } from './metrics/metric-fields.js';
import { RETENTION_S } from './finish-run.js';
import { indexRun } from './run-index.js';
import { newRunId } from './run-id.js';
import type { Trigger } from './run-record.js';

export interface SkippedRun {
  pipeline: string;
  lane: Lane;
  trigger: Trigger;
  reason: string;
  scheduledAt?: number;
  lateSeconds?: number;
}

export async function recordSkippedRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  skipped: SkippedRun,
): Promise<string> {
  const runId = newRunId(skipped.pipeline);
  const now = Date.now();
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline: skipped.pipeline,
    kind: 'sync',
    trigger: skipped.trigger,
    lane: skipped.lane,
    status: 'skipped',
    reason: skipped.reason,
    version: 0,
    rows: 0,
    rejected: 0,
    createdAt: now,
    finishedAt: now,
    stages: '[]',
  };
  if (skipped.scheduledAt !== undefined) fields.scheduledAt = skipped.scheduledAt;
  if (skipped.lateSeconds !== undefined) fields.lateSeconds = skipped.lateSeconds;
  const multi = redis.multi().hset(keys.run(runId), fields).expire(keys.run(runId), RETENTION_S);
  countRunEnd(multi, keys.metrics, skipped.pipeline, 'skipped');
  await indexRun(multi, keys, { id: runId, pipeline: skipped.pipeline }, now).exec();
  return runId;
}
