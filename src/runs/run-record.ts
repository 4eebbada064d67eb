/**
 * A run as kept in Redis: one hash per run (`<prefix>:{q}:run:<id>`). Counts are hash fields that
 * workers increment as jobs settle (`op:<operationId>:<count>`), so a run's progress is one HGETALL.
 */
import {
  parseGuardReport,
  type GuardReport,
  type MassDeleteDetails,
  type PriceCount,
} from '../pipeline/index.js';
import type { Lane } from './keys.js';

/**
 * `planned` items enqueued; each reaches one outcome: `delivered` (confirmed and committed),
 * `failed` (dead-lettered), `stale` (a newer change was applied) or `cancelled` (dropped unsent
 * when an operator cancelled the run). `skipped`: unchanged entities, never planned, counted apart.
 */
export const COUNT_NAMES = [
  'planned',
  'delivered',
  'failed',
  'stale',
  'cancelled',
  'skipped',
] as const;
export type CountName = (typeof COUNT_NAMES)[number];
export type OperationCounts = Record<CountName, number>;

/**
 * running -> blocked (the platform refuses every request: worker/breaker.ts) -> running;
 * running -> succeeded (every planned item delivered, no row rejected) or partial; or, when an
 * operator cancels it, running -> cancelling (nothing more is sent; its jobs in flight finish)
 * -> cancelled (cancel-run.ts). A schedule's tick that started nothing is recorded as skipped,
 * with its reason; a run the mass-delete guard stopped before sending anything as guard_stopped,
 * with the deletes it wanted. An export run ends succeeded, or failed with its reason.
 */
export type RunStatus =
  | 'running'
  | 'blocked'
  | 'cancelling'
  | 'succeeded'
  | 'partial'
  | 'cancelled'
  | 'skipped'
  | 'guard_stopped'
  | 'failed';
/**
 * `sync`: a pipeline's run of its input (cli, schedule, http); `replay`: dead letters sent again;
 * `undo`: the inverse of a finished run from its before-images; `repair`: what reconciliation found
 * the platform missing; `export` (src/export) writes files from a read operation instead of
 * delivering changes.
 */
export const RUN_KINDS = ['sync', 'replay', 'undo', 'export', 'repair'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/**
 * Whether a run stands for its pipeline (its status on the overview, its last run, health,
 * schedules, the last-success gauge): its sync runs, and an export pipeline's exports (it has no
 * other); a replay, an undo or a repair never (docs/DELIVERY.md, Runs).
 */
export function standsForPipeline(run: { kind: RunKind }): boolean {
  return run.kind === 'sync' || run.kind === 'export';
}

/** An undo (from before-images) and a replay (dead letters) read no source file. */
export function readsNoSource(run: { kind: RunKind }): boolean {
  return run.kind === 'undo' || run.kind === 'replay';
}

/** Runs recorded before kinds had these names said `run` for a sync run. */
function kindOf(field: string | undefined): RunKind {
  return RUN_KINDS.find((k) => k === field) ?? 'sync';
}

/** What started a run (docs/SCHEDULES.md). */
export const TRIGGERS = ['cli', 'schedule', 'http', 'replay'] as const;
export type Trigger = (typeof TRIGGERS)[number];

/**
 * The deletes a run stopped by the mass-delete guard wanted: how many of the entities in state,
 * against which limits, per delete operation, and a sample of their keys (at most 20).
 */
export type WantedDeletes = Omit<MassDeleteDetails, 'pipeline' | 'runId'>;

/** What an export run read and wrote, and where its cursor went (src/export, docs/EXPORTS.md). */
export interface ExportSummary {
  operation: string;
  /** Rows written (an order's lines, when rows are exploded). */
  records: number;
  /** Items read from the platform. */
  items: number;
  files: { path: string; records: number; sha256: string }[];
  cursor: { before: string | null; after: string | null };
}

export interface StageInfo {
  index: number;
  operationIds: string[];
  jobs: number;
  requests: number;
}

/**
 * The platform's description as a run saw it against the pinned one (docs/INTERFACE.md, Pinning
 * the description): the hashes, the counts, and the changes that let it go on or refused it.
 */
export interface RunContract {
  /** sha256 of the description read before the run. */
  sha256: string;
  /** sha256 of the pinned description. */
  pinned: string;
  changed: boolean;
  breaking: number;
  nonBreaking: number;
  changes: { kind: string; operationId?: string; path: string; message: string }[];
}

export interface RunRecord {
  id: string;
  pipeline: string;
  kind: RunKind;
  lane: Lane;
  status: RunStatus;
  trigger: Trigger;
  /** Who started it, when a console token did (the token's name). */
  startedBy?: string;
  /** The OpenTelemetry trace of its start, jobs and requests, when traces were exported. */
  traceId?: string;
  /** Why a skipped run started nothing. */
  reason?: string;
  /** For a schedule's run: the tick's time, and how long after it the run started. */
  scheduledAt?: number;
  lateSeconds?: number;
  /**
   * The platform it was planned for (normalised base URL): only workers configured for it deliver
   * its jobs. Absent on runs recorded before runs named it (and export runs).
   */
  platform?: string;
  /** The source read, when given (`--file`). */
  file?: string;
  /** A guard-stopped run's source file, as runs stopped before inputs were kept recorded it. */
  sourcePath?: string;
  /** A guard-stopped run's copy of the input it read (kept-input.ts): what allowing it reads. */
  keptInput?: string;
  version: number;
  rows: number;
  /** Records rejected while planning (their errors are in the run's error list). */
  rejected: number;
  /** When it was recorded, its plan made: its delivery's start. */
  createdAt: number;
  /** When its reading and planning began (a sync run's; older records have none). */
  plannedFrom?: number;
  finishedAt?: number;
  stages: StageInfo[];
  currentStage: number;
  /** Jobs of each stage not settled yet. */
  pending: number[];
  operations: Record<string, OperationCounts>;
  /** Why a `blocked` run waits (the platform's refusal: worker/breaker.ts). */
  blockedReason?: string;
  /** When it last went from blocked back to running (a resume, a probe that passed), epoch ms. */
  resumedAt?: number;
  /** Dead-letter entries written by this run. */
  deadLetters: number;
  /** For a run the mass-delete guard stopped: the deletes it wanted. */
  wantedDeletes?: WantedDeletes;
  /** For such a run: the run an operator started with its deletes allowed, and who. */
  deletesAllowed?: { runId: string; by: string };
  /** For an export run: what it wrote. */
  export?: ExportSummary;
  /** With a pinned description: how the one read before the run differed from it. */
  contract?: RunContract;
  /** Changed prices and the requests that carry them, as planned (Plan.prices). */
  prices?: PriceCount;
  /** For a run the value guards stopped: what they found (src/pipeline/guards). */
  guards?: GuardReport;
  /** For such a run: the run an operator allowed its plan in, and who. */
  guardAllowed?: { runId: string; by: string };
  /** For a run of an allowed plan: the stopped run it was allowed from. */
  allowedFrom?: string;
  /** For an undo: the run it undoes. */
  undoOf?: string;
  /** For a replay: the runs whose dead letters it sends again. */
  replayOf?: string[];
  /** Requests the workers sent for it: in all, since when, per recent 10 s (run-requests.ts). */
  sent: SentRequests;
}

export interface SentRequests {
  requests: number;
  /** When the first was answered (epoch ms); absent before. */
  since?: number;
  /** Bucket n (epoch ms / REQUEST_BUCKET_MS) -> requests answered in it; only the recent ones. */
  perBucket: Record<number, number>;
}

/** Whether a run in this status is over: nothing of it is in flight, its pipeline is free. */
export function isFinishedStatus(status: RunStatus): boolean {
  return status !== 'running' && status !== 'cancelling' && status !== 'blocked';
}

export function isFinished(run: RunRecord): boolean {
  return isFinishedStatus(run.status);
}

export function parseRun(fields: Record<string, string>): RunRecord | undefined {
  if (!fields.id) return undefined;
  const stages = JSON.parse(fields.stages ?? '[]') as StageInfo[];
  const operations: Record<string, OperationCounts> = {};
  const sent: SentRequests = { requests: Number(fields.sent ?? 0), perBucket: {} };
  if (fields.sentSince) sent.since = Number(fields.sentSince);
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith('rq:')) sent.perBucket[Number(field.slice(3))] = Number(value);
    const match = /^op:(.+):([a-z]+)$/.exec(field);
    if (!match) continue;
    const [, operationId, name] = match as unknown as [string, string, CountName];
    if (!COUNT_NAMES.includes(name)) continue;
    const row = (operations[operationId] ??= zeroCounts());
    row[name] = Number(value);
  }
  const run: RunRecord = {
    id: fields.id,
    pipeline: fields.pipeline ?? '',
    // Undos recorded before they had a kind of their own said `sync`, with their undoOf.
    kind: fields.undoOf ? 'undo' : kindOf(fields.kind),
    lane: (fields.lane as Lane) ?? 'bulk',
    status: (fields.status as RunStatus) ?? 'running',
    trigger: (fields.trigger as Trigger) ?? (fields.kind === 'replay' ? 'replay' : 'cli'),
    version: Number(fields.version ?? 0),
    rows: Number(fields.rows ?? 0),
    rejected: Number(fields.rejected ?? 0),
    createdAt: Number(fields.createdAt ?? 0),
    stages,
    currentStage: Number(fields.currentStage ?? 0),
    pending: stages.map((s) => Number(fields[`pending:${s.index}`] ?? 0)),
    operations,
    deadLetters: Number(fields.deadLetters ?? 0),
    sent,
  };
  if (fields.file) run.file = fields.file;
  if (fields.platform) run.platform = fields.platform;
  if (fields.sourcePath) run.sourcePath = fields.sourcePath;
  if (fields.keptInput) run.keptInput = fields.keptInput;
  if (fields.allowedRunId) {
    run.deletesAllowed = { runId: fields.allowedRunId, by: fields.allowedBy ?? '' };
  }
  if (fields.reason) run.reason = fields.reason;
  if (fields.blockedReason) run.blockedReason = fields.blockedReason;
  if (fields.resumedAt) run.resumedAt = Number(fields.resumedAt);
  if (fields.startedBy) run.startedBy = fields.startedBy;
  if (fields.traceId) run.traceId = fields.traceId;
  if (fields.scheduledAt) run.scheduledAt = Number(fields.scheduledAt);
  if (fields.lateSeconds) run.lateSeconds = Number(fields.lateSeconds);
  if (fields.finishedAt) run.finishedAt = Number(fields.finishedAt);
  if (fields.plannedFrom) run.plannedFrom = Number(fields.plannedFrom);
  if (fields.wantedDeletes) run.wantedDeletes = JSON.parse(fields.wantedDeletes) as WantedDeletes;
  if (fields.export) run.export = JSON.parse(fields.export) as ExportSummary;
  if (fields.contract) run.contract = JSON.parse(fields.contract) as RunContract;
  if (fields.guards) run.guards = parseGuardReport(fields.guards);
  if (fields.guardAllowedRunId) {
    run.guardAllowed = { runId: fields.guardAllowedRunId, by: fields.guardAllowedBy ?? '' };
  }
  if (fields.allowedFrom) run.allowedFrom = fields.allowedFrom;
  if (fields.undoOf) run.undoOf = fields.undoOf;
  if (fields.replayOf) run.replayOf = JSON.parse(fields.replayOf) as string[];
  if (fields.prices) run.prices = JSON.parse(fields.prices) as PriceCount;
  return run;
}

export function zeroCounts(): OperationCounts {
  return { planned: 0, delivered: 0, failed: 0, stale: 0, cancelled: 0, skipped: 0 };
}

/** Each count summed over the run's operations. */
export function itemTotals(operations: Record<string, OperationCounts>): OperationCounts {
  const total = zeroCounts();
  for (const c of Object.values(operations)) {
    for (const name of COUNT_NAMES) total[name] += c[name];
  }
  return total;
}

/** Planned items that reached an outcome: delivered + failed + stale + cancelled, never skipped. */
export function settledCount(c: OperationCounts): number {
  return sentCount(c) + c.cancelled;
}

/** Planned items that were sent (the platform answered them or state made them stale): not cancelled. */
export function sentCount(c: OperationCounts): number {
  return c.delivered + c.failed + c.stale;
}

/** Items of the run that reached an outcome (at most `planned`; unchanged ones are not in it). */
export function settledItems(run: RunRecord): { done: number; planned: number } {
  const t = itemTotals(run.operations);
  return { done: settledCount(t), planned: t.planned };
}
