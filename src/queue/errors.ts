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
 * A run's planning stalled past its pipeline lock's expiry, so another run may have taken the
 * pipeline: this run enqueues nothing rather than run beside it. Exit code 1.
 */
export class RunLockLostError extends FerryError {
  readonly code = 'FERRY_RUN_LOCK_LOST';
  constructor(pipeline: string, runId: string) {
    super(
      `Run ${runId} lost pipeline "${pipeline}"'s lock while it was planned (the process stalled ` +
        `past the lock's expiry), so it enqueued nothing. Start it again once \`ferry status\` ` +
        `shows no active run for the pipeline.`,
      { pipeline, runId },
    );
  }
}

/** A run that is over cannot be cancelled. Exit code 1. */
export class RunFinishedError extends FerryError {
  readonly code = 'FERRY_RUN_FINISHED';
  constructor(runId: string, status: string) {
    super(`Run ${runId} already finished (${status}): there is nothing to cancel.`, {
      runId,
      status,
    });
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
