/** Errors of delivery, runs and dead letters. */
import { FerryError } from '../errors/index.js';

/** A pipeline already has a run in progress: one run per pipeline at a time. Exit code 1. */
export class RunActiveError extends FerryError {
  readonly code = 'FERRY_RUN_ACTIVE';
  constructor(pipeline: string, runId: string) {
    super(
      `Pipeline "${pipeline}" already has a run in progress (${runId}): one run per pipeline at a ` +
        `time. Wait for it (\`ferry status\`), then start this one again.`,
      { pipeline, runId },
    );
  }
}

/**
 * Thrown from a job whose attempt left requests that failed transiently: BullMQ retries the job
 * (with backoff) carrying only those requests.
 */
export class DeliveryDeferredError extends FerryError {
  readonly code = 'FERRY_DELIVERY_DEFERRED';
  constructor(requests: number, firstReason: string) {
    super(`${requests} request(s) will be retried: ${firstReason}`, { requests });
  }
}

/** A run or dead letter that does not exist (or no longer does). Exit code 2. */
export class NotFoundError extends FerryError {
  readonly code = 'FERRY_NOT_FOUND';
  override readonly exitCode = 2;
  constructor(what: string, id: string, hint: string) {
    super(`No ${what} "${id}". ${hint}`, { what, id });
  }
}
