/** What a delivery job carries, and the outcome counts a job reports when it settles. */
import type { StateItem } from '../pipeline/index.js';

/**
 * One request's worth of items. The items do not carry their payloads: those are kept once, as
 * the JSON a request sends (`payloadsJson`), and parsed only where a payload itself is needed (a
 * split, a dead letter: request-body.ts).
 */
export interface JobRequest {
  operationId: string;
  pathParams: Record<string, string>;
  idempotencyKey: string;
  items: StateItem[];
  /** The items' payloads as JSON: an array in item order, or an entity write's one payload. */
  payloadsJson: string;
}

export type Outcome = 'delivered' | 'failed' | 'stale' | 'cancelled';

/** Items per operation and outcome. */
export type Tally = Record<string, Partial<Record<Outcome, number>>>;

/**
 * A BullMQ job's data. A run's jobs carry no requests: those are kept once, in the run's payload
 * hash, and read by the worker (so a bundle's payloads do not go through Redis and the client
 * three more times on their way from the plan to the worker). A retried job carries what its
 * earlier attempts left; a replay job carries its request.
 */
export interface DeliveryJobData {
  runId: string;
  pipeline: string;
  stage: number;
  /** The job's id in its run (its field in the run's payload hash); see queueJobId. */
  job?: string;
  /** The requests to deliver, when not (or no longer) those of the run's payload hash. */
  requests?: JobRequest[];
  /** Outcomes of earlier attempts of this job (their items are no longer in `requests`). */
  tally?: Tally;
  /** Dead-letter entries written by earlier attempts. */
  deadLetters?: number;
  /** Dead-letter entries this job replays; removed when it settles. */
  replayOf?: string[];
  /** The W3C trace context of the stage's release (its span's parent), when traces are exported. */
  traceparent?: string;
  /** The run's trace context: the parent of the next stage's release, which this job may do. */
  runTraceparent?: string;
}

/** What the run's payload hash keeps for a job until it settles. */
export interface JobPayload {
  requests: JobRequest[];
  /** Dead-letter entries the job replays; removed when it settles. */
  replayOf?: string[];
}

/** A planned job: its id, stage and payload. */
export interface StagedJob extends JobPayload {
  id: string;
  stage: number;
}

/** An item as a job keeps it: everything but its payload. */
export function stateItem(item: StateItem & { payload?: unknown }): StateItem {
  const out: StateItem = {
    resource: item.resource,
    key: item.key,
    kind: item.kind,
    hash: item.hash,
    version: item.version,
    baseVersion: item.baseVersion,
  };
  if (item.fieldHashes) out.fieldHashes = item.fieldHashes;
  if (item.input !== undefined) out.input = item.input;
  if (item.source) out.source = item.source;
  if (item.also) out.also = item.also.map(stateItem);
  return out;
}

export function addToTally(tally: Tally, operationId: string, outcome: Outcome, n: number): void {
  if (n === 0) return;
  const row = (tally[operationId] ??= {});
  row[outcome] = (row[outcome] ?? 0) + n;
}

/** Adds every count of `part` to `tally`. */
export function addTally(tally: Tally, part: Tally): void {
  for (const [operationId, row] of Object.entries(part)) {
    for (const [outcome, n] of Object.entries(row))
      addToTally(tally, operationId, outcome as Outcome, n);
  }
}

export function tallyTotal(tally: Tally, outcome: Outcome): number {
  return Object.values(tally).reduce((sum, row) => sum + (row[outcome] ?? 0), 0);
}

/**
 * The queue's id of a run's job: the run's id and the job's own (a request's idempotency key, or a
 * bundle's hash). Scoped to the run, so the queue may keep completed jobs for the dashboards
 * (delivery.keepCompletedJobs) without refusing a later run's job for the same change, and a
 * replay's job never meets a sync run's; a repeated release of the same run is still a no-op.
 */
export function queueJobId(runId: string, job: string): string {
  return `${runId}.${job}`;
}

/** A queued job's id in its run (jobs queued before ids were scoped carry none: their queue id). */
export function runJobId(job: { id?: string | undefined; data: DeliveryJobData }): string {
  return job.data.job ?? job.id ?? '';
}
