/** A dead letter: one request (or one item of it) the platform refused, or that ran out of retries. */
import type { ErrorCode } from '../../errors/index.js';
import type { DeliveryItem } from '../../pipeline/index.js';

export interface DeadLetterRequest {
  method: string;
  /** Path with its parameters filled in. */
  path: string;
  query?: Record<string, string[]>;
  /** What was sent besides the body, secrets left out: the idempotency key, the content type. */
  headers: Record<string, string>;
  body?: unknown;
}

export interface DeadLetter {
  id: string;
  /** Failures of these items since the entry opened (a later run's failure updates it in place). */
  failures?: number;
  runId: string;
  pipeline: string;
  operationId: string;
  pathParams: Record<string, string>;
  idempotencyKey: string;
  /** The items, each with its source file and line, version and payload. */
  items: DeliveryItem[];
  request: DeadLetterRequest;
  /** The answer's status; absent when there was none (network error, timeout). */
  status?: number;
  /** The first bytes of the answer's body (or the item's own result in a 207). */
  bodyExcerpt?: string;
  errorCode: ErrorCode;
  message: string;
  /** The platform's own words for the refusal, with each item error's pointer. */
  error?: string;
  /** The refusal's item errors: where in the request, and what the platform said of it. */
  errors?: { pointer: string; message?: string }[];
  /** Attempts of the job when it was dead-lettered. */
  attempts: number;
  /** When it was dead-lettered (ms since the epoch). */
  at: number;
  /** The job that delivered it. */
  jobId: string;
  /** The dead letter this one is a failed replay of. */
  replayOf?: string;
}
