/** What a delivery job carries, and the outcome counts a job reports when it settles. */
import type { DeliveryItem, DeliveryRequest } from '../pipeline/types.js';

/**
 * One request's worth of items. The body is not stored: it is rebuilt from the items' payloads
 * (request-body.ts), so a job holds each payload once.
 */
export interface JobRequest {
  operationId: string;
  pathParams: Record<string, string>;
  idempotencyKey: string;
  items: DeliveryItem[];
}

export type Outcome = 'delivered' | 'failed' | 'stale';

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
  /** The requests to deliver, when not (or no longer) those of the run's payload hash. */
  requests?: JobRequest[];
  /** Outcomes of earlier attempts of this job (their items are no longer in `requests`). */
  tally?: Tally;
  /** Dead-letter entries written by earlier attempts. */
  deadLetters?: number;
  /** Dead-letter entries this job replays; removed when it settles. */
  replayOf?: string[];
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

export function toJobRequest(request: DeliveryRequest): JobRequest {
  return {
    operationId: request.operationId,
    pathParams: request.pathParams,
    idempotencyKey: request.idempotencyKey,
    items: request.items,
  };
}

export function addToTally(tally: Tally, operationId: string, outcome: Outcome, n: number): void {
  if (n === 0) return;
  const row = (tally[operationId] ??= {});
  row[outcome] = (row[outcome] ?? 0) + n;
}

export function tallyTotal(tally: Tally, outcome: Outcome): number {
  return Object.values(tally).reduce((sum, row) => sum + (row[outcome] ?? 0), 0);
}
