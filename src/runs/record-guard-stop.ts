/**
 * A run the mass-delete guard stopped is kept as a run with status guard_stopped and the deletes
 * it wanted (counts per operation, a sample of keys), so `ferry runs`, `GET /api/runs/{id}` and
 * the console show what an operator is asked to allow. Nothing of it was sent.
 */
import { MassDeleteGuardError, ValueGuardError } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys, Lane } from './keys.js';
import { countRunEnd } from './metrics/metric-fields.js';
import { notify, type NotifyContext } from './notify/notify-run.js';
import { RETENTION_S } from './finish-run.js';
import { indexRun } from './run-index.js';
import type { RunKind, Trigger, WantedDeletes } from './run-record.js';

export interface GuardStoppedRun {
  runId: string;
  pipeline: string;
  lane: Lane;
  trigger: Trigger;
  startedBy?: string;
  /** The source read (--file, an upload, a picked-up file), as shown. */
  file?: string;
  /** The copy of the input it read (kept-input.ts): what an operator's allow-once reads. */
  keptInput?: string;
  scheduledAt?: number;
  lateSeconds?: number;
  /** When the run started planning. */
  createdAt: number;
  /** A repair's (default sync). */
  kind?: RunKind;
}

async function recordGuardStop(
  redis: RedisClient,
  keys: DeliveryKeys,
  run: GuardStoppedRun,
  rows: number,
  reason: string,
  found: Record<string, string>,
): Promise<void> {
  const now = Date.now();
  const fields: Record<string, string | number> = {
    id: run.runId,
    pipeline: run.pipeline,
    kind: run.kind ?? 'sync',
    trigger: run.trigger,
    lane: run.lane,
    status: 'guard_stopped',
    reason,
    version: 0,
    rows,
    rejected: 0,
    createdAt: run.createdAt,
    finishedAt: now,
    stages: '[]',
    ...found,
  };
  if (run.startedBy) fields.startedBy = run.startedBy;
  if (run.file) fields.file = run.file;
  if (run.keptInput) fields.keptInput = run.keptInput;
  if (run.scheduledAt !== undefined) fields.scheduledAt = run.scheduledAt;
  if (run.lateSeconds !== undefined) fields.lateSeconds = run.lateSeconds;
  const record = keys.run(run.runId);
  const multi = redis.multi().hset(record, fields).expire(record, RETENTION_S);
  countRunEnd(multi, keys.metrics, {
    pipeline: run.pipeline,
    status: 'guard_stopped',
    kind: run.kind ?? 'sync',
  });
  await indexRun(multi, keys, { id: run.runId, pipeline: run.pipeline }, now).exec();
}

/** Tells the pipeline's webhooks of a guard stop, with what the guard adds to the event. */
async function notifyStopped(
  ctx: NotifyContext,
  run: GuardStoppedRun,
  message: string,
  more: Record<string, unknown>,
): Promise<void> {
  await notify(ctx, run.pipeline, 'guard_stopped', run.runId, {
    event: 'guard_stopped',
    pipeline: run.pipeline,
    runId: run.runId,
    trigger: run.trigger,
    message,
    ...more,
  });
}

/**
 * Records the run the guard stopped and tells the pipeline's webhooks (guard_stopped); returns
 * the guard's error naming the recorded run, for the caller to throw.
 */
export async function guardStopped(
  ctx: NotifyContext,
  run: GuardStoppedRun,
  error: MassDeleteGuardError,
): Promise<MassDeleteGuardError> {
  const details = error.details;
  const { deletes, inState, maxShare, rows, minRows, operations, sample } = details;
  const wanted: WantedDeletes = { deletes, inState, maxShare, rows, minRows, operations, sample };
  await recordGuardStop(ctx.redis, ctx.keys, run, rows, error.message, {
    wantedDeletes: JSON.stringify(wanted),
  });
  await notifyStopped(ctx, run, error.message, {
    deletes: details.deletes,
    operations: details.operations,
  });
  return new MassDeleteGuardError({ ...details, runId: run.runId });
}

/**
 * Records the run the value guards stopped (what they found, samples included, and the digest of
 * the plan an allow-once is bound to) and tells the pipeline's webhooks (guard_stopped); returns
 * the guards' error naming the recorded run.
 */
export async function valueGuardStopped(
  ctx: NotifyContext,
  run: GuardStoppedRun,
  rows: number,
  error: ValueGuardError,
): Promise<ValueGuardError> {
  const guards = error.report;
  const stopped = new ValueGuardError({ pipeline: run.pipeline, guards, runId: run.runId });
  await recordGuardStop(ctx.redis, ctx.keys, run, rows, stopped.message, {
    guards: JSON.stringify(guards),
  });
  await notifyStopped(ctx, run, stopped.message, {
    guards: guards.results.filter((r) => r.tripped).map((r) => r.guard),
  });
  return stopped;
}
