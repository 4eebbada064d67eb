/**
 * The installation's figures, kept in one Redis hash (`<prefix>:{q}:metrics`) that every worker
 * adds to, so `ferry serve` reports all of them and a restart of it loses nothing. A field is its
 * metric and its label values joined by `|` (pipeline names and operation ids hold no `|`). The
 * settle and cancel scripts write the `items`, `runs` and `lastSuccess` fields themselves, in
 * this same form. A pipeline's fields name it as it runs (`catalog@north` on platform north):
 * /metrics splits that into its `pipeline` and `platform` labels.
 */
import type { ChainableCommander } from 'ioredis';
import type { RunKind, RunStatus } from '../run-record.js';

export const SEP = '|';

export const itemsField = (pipeline: string, operation: string, outcome: string): string =>
  ['items', pipeline, operation, outcome].join(SEP);
/** `runs|<pipeline>|<status>|<kind>` (fields written before kinds had no kind: sync runs). */
export const runsField = (pipeline: string, status: RunStatus, kind: RunKind): string =>
  ['runs', pipeline, status, kind].join(SEP);
/** Breaker open for a pipeline (worker/breaker.ts): `blocked|<pipeline>|<reason>` -> 0 or 1. */
export const blockedField = (pipeline: string, reason: string): string =>
  ['blocked', pipeline, reason].join(SEP);
export const lastSuccessField = (pipeline: string): string => ['lastSuccess', pipeline].join(SEP);
/*
 * A request's figures are per platform (its name, `default` for the top-level interface) as the
 * last part of the field; fields written before platforms had none: the default platform's.
 */
export const requestsField = (operation: string, status: string, platform: string): string =>
  ['requests', operation, status, platform].join(SEP);
export const durationCountField = (operation: string, platform: string): string =>
  ['durationCount', operation, platform].join(SEP);
export const durationSumField = (operation: string, platform: string): string =>
  ['durationSum', operation, platform].join(SEP);
export const durationBucketField = (operation: string, le: number, platform: string): string =>
  ['durationBucket', operation, String(le), platform].join(SEP);
export const RATE_LIMITED_FIELD = 'rateLimited';
export const rateLimitedField = (platform: string): string =>
  [RATE_LIMITED_FIELD, platform].join(SEP);

/** Seconds: the buckets of ferry_request_duration_seconds. */
export const DURATION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Counts a run that ended (or was skipped) once, in the caller's transaction. Only a sync run
 * that settled every planned item sets the last success: settle-job.ts and export-state.ts do
 * that (and startRun for a sync run with nothing to send).
 */
export function countRunEnd(
  multi: ChainableCommander,
  metricsKey: string,
  run: { pipeline: string; status: RunStatus; kind: RunKind },
): ChainableCommander {
  return multi.hincrby(metricsKey, runsField(run.pipeline, run.status, run.kind), 1);
}

/**
 * The Lua that counts a run's end into `ferry_runs_total` (the settle and cancel scripts): its
 * kind read from its record (`run` key at `runAt`, the metrics at `metricsAt`); `status` a Lua
 * expression.
 */
export function countRunEndLua(
  at: { run: number; metrics: number; pipeline: string },
  status: string,
): string {
  return `redis.call('HINCRBY', KEYS[${at.metrics}], 'runs|' .. ${at.pipeline} .. '|' .. ${status} .. '|' .. ${runKindLua(at.run)}, 1)`;
}

/** A run's kind in Lua, from its record (old records: `run` or none, a sync run; an undo by its undoOf). */
export function runKindLua(runAt: number): string {
  return `(function() local k = redis.call('HGET', KEYS[${runAt}], 'kind'); if redis.call('HEXISTS', KEYS[${runAt}], 'undoOf') == 1 then return 'undo' end; if k == false or k == 'run' then return 'sync' end; return k end)()`;
}
