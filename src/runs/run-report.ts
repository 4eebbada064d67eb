/**
 * A run's report: what `ferry run --json` prints and what is written to delivery.reportsDir as
 * <runId>.json and <runId>-failures.csv (rejected records and dead-lettered items, one a row).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RedisClient } from '../redis/index.js';
import { type RowError, toCsv } from '../base/index.js';
import { forecastRun, type RunForecast } from './forecast.js';
import { requestsInFlight } from './run-status-text.js';
import { guardViews, type GuardView } from '../pipeline/index.js';
import type { DeadLetter } from './dead-letters/dead-letter.js';
import type { DeadLetterStore } from './dead-letters/dead-letter-store.js';
import { NotFoundError } from './errors.js';
import type { DeliveryKeys } from './keys.js';
import {
  itemTotals,
  parseRun,
  readsNoSource,
  settledCount,
  type OperationCounts,
  type RunRecord,
} from './run-record.js';

export interface DeadLetterSummary {
  id: string;
  operationId: string;
  keys: string[];
  status?: number;
  errorCode: string;
  message: string;
  /** The platform's own words for the refusal (the dead letter's `error`), where it gave some. */
  error?: string;
  source: { file: string; line: number }[];
}

export interface RunReport {
  runId: string;
  pipeline: string;
  kind: RunRecord['kind'];
  trigger: RunRecord['trigger'];
  startedBy?: string;
  /** Its OpenTelemetry trace (docs/TRACES.md), when traces were exported. */
  traceId?: string;
  status: RunRecord['status'];
  /** Why a skipped run started nothing. */
  reason?: string;
  file?: string;
  /** The platform it was planned for, the only one its jobs are delivered to (normalised). */
  platform?: string;
  version: number;
  rows: number;
  startedAt: string;
  finishedAt?: string;
  /** From its record (its plan made) to its end: delivery. */
  seconds?: number;
  /** Reading the source and planning, before `seconds`. */
  planSeconds?: number;
  operations: Record<string, OperationCounts>;
  /**
   * The operations' counts summed: settled = delivered + failed + stale + cancelled <= planned;
   * unchanged entities (never planned) apart. Live while the run goes on.
   */
  items: ItemCounts;
  /** A blocked run: why (the platform's refusal, worker/breaker.ts). */
  blockedReason?: string;
  /** A cancelling run: requests still in flight (one per job a worker holds). */
  inFlight?: number;
  /** A running run: requests left, the recent rate, when it ends (forecast.ts). */
  forecast?: RunForecast;
  /** Records rejected while planning (at most the first ERRORS_KEPT). */
  errors: RowError[];
  rejected: number;
  /** Items dead-lettered. */
  deadLettered: number;
  deadLetters: DeadLetterSummary[];
  stages: RunRecord['stages'];
  /** For a run the mass-delete guard stopped: the deletes it wanted (counts, a sample of keys). */
  wantedDeletes?: RunRecord['wantedDeletes'];
  deletesAllowed?: RunRecord['deletesAllowed'];
  /** For an export run: what it wrote (files, records, cursor). */
  export?: RunRecord['export'];
  /** With a pinned description: how the one read before the run differed from it. */
  contract?: RunRecord['contract'];
  /**
   * For a run the value guards stopped: every configured guard measured over its resource,
   * tripped or not, with samples of old and new values and a sentence.
   */
  guards?: GuardView[];
  guardAllowed?: RunRecord['guardAllowed'];
  allowedFrom?: RunRecord['allowedFrom'];
  /** An undo's: the run it undoes. */
  undoOf?: string;
  /** A replay's: the runs whose dead letters it sends again. */
  replayOf?: string[];
  /** Changed prices and the requests that carry them, as planned. */
  prices?: RunRecord['prices'];
  files?: { json: string; csv: string };
}

export interface ItemCounts {
  planned: number;
  settled: number;
  delivered: number;
  failed: number;
  stale: number;
  cancelled: number;
  unchanged: number;
}

export function itemCounts(run: RunRecord): ItemCounts {
  const t = itemTotals(run.operations);
  return {
    planned: t.planned,
    settled: settledCount(t),
    delivered: t.delivered,
    failed: t.failed,
    stale: t.stale,
    cancelled: t.cancelled,
    unchanged: t.skipped,
  };
}

/** Rejected records a run keeps for its report. */
export const ERRORS_KEPT = 10_000;

function summarize(entry: DeadLetter): DeadLetterSummary {
  const summary: DeadLetterSummary = {
    id: entry.id,
    operationId: entry.operationId,
    keys: entry.items.map((i) => i.key),
    errorCode: entry.errorCode,
    message: entry.message,
    source: entry.items.flatMap((i) => (i.source ? [i.source] : [])),
  };
  if (entry.status !== undefined) summary.status = entry.status;
  if (entry.error !== undefined) summary.error = entry.error;
  return summary;
}

/** Operations in the order their stages run. */
function inStageOrder(run: RunRecord): Record<string, OperationCounts> {
  const order = run.stages.flatMap((s) => s.operationIds);
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  return Object.fromEntries(Object.entries(run.operations).sort(([a], [b]) => rank(a) - rank(b)));
}

export async function loadRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  runId: string,
): Promise<RunRecord> {
  const run = parseRun(await redis.hgetall(keys.run(runId)));
  if (!run) {
    throw new NotFoundError('run', runId, 'Run `ferry status` to see the runs in progress.');
  }
  return run;
}

export async function buildRunReport(
  redis: RedisClient,
  keys: DeliveryKeys,
  dlq: DeadLetterStore,
  runId: string,
  /** Only the first so many dead letters (a page showing a run with tens of thousands). */
  options: { deadLetterLimit?: number } = {},
): Promise<RunReport> {
  const run = await loadRun(redis, keys, runId);
  const errors = (await redis.lrange(keys.runErrors(runId), 0, ERRORS_KEPT - 1)).map(
    (json) => JSON.parse(json) as RowError,
  );
  const limit = options.deadLetterLimit;
  const entries =
    run.deadLetters === 0
      ? []
      : limit === undefined
        ? await dlq.list({ runId })
        : (await dlq.page({ runId }, 0, limit)).entries;
  const report: RunReport = {
    runId: run.id,
    pipeline: run.pipeline,
    kind: run.kind,
    trigger: run.trigger,
    status: run.status,
    version: run.version,
    rows: run.rows,
    startedAt: new Date(run.createdAt).toISOString(),
    operations: inStageOrder(run),
    items: itemCounts(run),
    errors,
    rejected: run.rejected,
    deadLettered: itemTotals(run.operations).failed,
    deadLetters: entries.map(summarize),
    stages: run.stages,
  };
  if (run.blockedReason && run.status === 'blocked') report.blockedReason = run.blockedReason;
  if (run.status === 'cancelling') report.inFlight = requestsInFlight(run);
  const forecast = forecastRun(run, Date.now());
  if (forecast) report.forecast = forecast;
  // An undo or a replay reads no file (undos recorded before kinds said the pipeline's).
  if (run.file && !readsNoSource(run)) report.file = run.file;
  if (run.undoOf) report.undoOf = run.undoOf;
  if (run.replayOf) report.replayOf = run.replayOf;
  if (run.platform) report.platform = run.platform;
  if (run.reason) report.reason = run.reason;
  if (run.startedBy) report.startedBy = run.startedBy;
  if (run.traceId) report.traceId = run.traceId;
  if (run.wantedDeletes) report.wantedDeletes = run.wantedDeletes;
  if (run.deletesAllowed) report.deletesAllowed = run.deletesAllowed;
  if (run.export) report.export = run.export;
  if (run.contract) report.contract = run.contract;
  if (run.guards) report.guards = guardViews(run.guards.results);
  if (run.guardAllowed) report.guardAllowed = run.guardAllowed;
  if (run.allowedFrom) report.allowedFrom = run.allowedFrom;
  if (run.prices) report.prices = run.prices;
  if (run.finishedAt) {
    report.finishedAt = new Date(run.finishedAt).toISOString();
    report.seconds = (run.finishedAt - run.createdAt) / 1000;
  }
  if (run.plannedFrom !== undefined) report.planSeconds = (run.createdAt - run.plannedFrom) / 1000;
  return report;
}

export function failuresCsv(
  errors: readonly RowError[],
  entries: readonly DeadLetterSummary[],
): string {
  const rows: unknown[][] = errors.map((e) => [
    'rejected',
    e.file,
    e.line,
    '',
    '',
    e.field ?? '',
    '',
    'FERRY_INPUT_INVALID',
    e.message,
    '',
  ]);
  for (const entry of entries) {
    entry.keys.forEach((key, i) => {
      const source = entry.source[i];
      rows.push([
        'dead-letter',
        source?.file ?? '',
        source?.line ?? '',
        entry.operationId,
        key,
        '',
        entry.status ?? '',
        entry.errorCode,
        entry.error ?? entry.message,
        entry.id,
      ]);
    });
  }
  const header = [
    'kind',
    'file',
    'line',
    'operation',
    'key',
    'field',
    'status',
    'code',
    'message',
    'deadLetterId',
  ];
  return toCsv(header, rows);
}

/** Writes <dir>/<runId>.json and <dir>/<runId>-failures.csv; returns the report with their paths. */
export async function writeRunReport(report: RunReport, dir: string): Promise<RunReport> {
  const folder = resolve(dir);
  await mkdir(folder, { recursive: true });
  const files = {
    json: resolve(folder, `${report.runId}.json`),
    csv: resolve(folder, `${report.runId}-failures.csv`),
  };
  const withFiles = { ...report, files };
  await writeFile(files.json, `${JSON.stringify(withFiles, null, 2)}\n`);
  await writeFile(files.csv, failuresCsv(report.errors, report.deadLetters));
  return withFiles;
}
