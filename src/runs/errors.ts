/** Errors of delivery, runs and dead letters. */
import { FerryError } from '../errors/index.js';

/** A pipeline already has a run in progress: one run per pipeline at a time. Exit code 1. */
export class RunActiveError extends FerryError<'FERRY_RUN_ACTIVE'> {
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
export class RunLockLostError extends FerryError<'FERRY_RUN_LOCK_LOST'> {
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

/**
 * Redis lost its data (see epoch/installation-epoch.ts) and this run would resend everything the
 * pipeline delivered before: it stops before sending until the operator chooses. Exit code 1.
 */
export class StateLostError extends FerryError<'FERRY_STATE_LOST'> {
  readonly code = 'FERRY_STATE_LOST';
  constructor(
    pipeline: string,
    loss: { detectedAt: number; detectedBy: string; previousCreatedAt: number },
    items: number,
    requests: number,
  ) {
    super(
      `Redis lost its data (noticed ${new Date(loss.detectedAt).toISOString()} by ` +
        `${loss.detectedBy}; the data dated from ${new Date(loss.previousCreatedAt).toISOString()}), ` +
        `and pipeline "${pipeline}"'s state went with it: Ferry no longer knows what it delivered ` +
        `before, so this run would send all ${items} item(s) (${requests} request(s)) as new, ` +
        `though the platform may hold them already. Nothing was sent. To send them all once ` +
        `(later runs then go on as usual): \`ferry run ${pipeline} --resend-all\`, or an import ` +
        `with resendAll=true (POST /api/pipelines/${pipeline}/runs?resendAll=true).`,
      { pipeline, items, requests, detectedAt: loss.detectedAt },
    );
  }
}

/**
 * A process that was following a run found that Redis lost its data meanwhile: the run, its jobs
 * and the state it committed are gone. Exit code 3, so that scripts can tell it from failures.
 */
export class RedisDataLostError extends FerryError<'FERRY_REDIS_DATA_LOST'> {
  readonly code = 'FERRY_REDIS_DATA_LOST';
  override readonly exitCode = 3;
  constructor(runId: string) {
    super(
      `Redis lost its data while run ${runId} was in progress (it was restarted empty, failed over ` +
        'to an empty replica, or flushed): the run, its queued jobs and the state it committed are ' +
        'gone, and what was delivered before the loss is unknown to Ferry now. See `ferry status`; ' +
        "the pipeline's next run stops before resending anything and says the ways out.",
      { runId },
    );
  }
}

/**
 * Ctrl-C or SIGTERM while `ferry run` planned: nothing was enqueued, and the pipeline is free.
 * Exit code 4, the code of a `ferry run` stopped by a signal.
 */
export class RunInterruptedError extends FerryError<'FERRY_INTERRUPTED'> {
  readonly code = 'FERRY_INTERRUPTED';
  override readonly exitCode = 4;
  constructor(pipeline: string) {
    super(
      `Stopped while planning pipeline "${pipeline}": nothing was enqueued or sent, and the ` +
        'pipeline is free for the next run.',
      { pipeline },
    );
  }
}

/**
 * A job whose worker stopped past its shutdown timeout while it was sending: nothing of it is
 * settled or dead-lettered here; BullMQ retries it in another worker (idempotency keys make a
 * request that did reach the platform count once).
 */
export class WorkerStoppedError extends FerryError<'FERRY_WORKER_STOPPED'> {
  readonly code = 'FERRY_WORKER_STOPPED';
  constructor(jobId: string) {
    super(`Job ${jobId} was left unfinished by a worker that stopped; another worker retries it.`, {
      jobId,
    });
  }
}

/** A run that is over cannot be cancelled. Exit code 1. */
export class RunFinishedError extends FerryError<'FERRY_RUN_FINISHED'> {
  readonly code = 'FERRY_RUN_FINISHED';
  constructor(runId: string, status: string) {
    super(`Run ${runId} already finished (${status}): there is nothing to cancel.`, {
      runId,
      status,
    });
  }
}

/**
 * A purge of every dead letter a search finds, refused because the search finds another number
 * now than the one the operator confirmed (new failures came in, or someone purged some).
 */
export class DeadLettersChangedError extends FerryError<'FERRY_DEAD_LETTERS_CHANGED'> {
  readonly code = 'FERRY_DEAD_LETTERS_CHANGED';
  constructor(expected: number, found: number) {
    super(
      `${found} dead letter(s) match now, not the ${expected} confirmed: nothing was purged. ` +
        'Look at the list again and purge what it shows.',
      { expected, found },
    );
  }
}

/** `ferry resume` / the console's resume of a run that is not blocked. */
export class RunNotBlockedError extends FerryError<'FERRY_RUN_NOT_BLOCKED'> {
  readonly code = 'FERRY_RUN_NOT_BLOCKED';
  constructor(runId: string, status: string) {
    super(`Run ${runId} is ${status}, not blocked: there is nothing to resume.`, {
      runId,
      status,
    });
  }
}

/**
 * Thrown from a job whose attempt left requests that failed transiently: BullMQ retries the job
 * (with backoff) carrying only those requests.
 */
export class DeliveryDeferredError extends FerryError<'FERRY_DELIVERY_DEFERRED'> {
  readonly code = 'FERRY_DELIVERY_DEFERRED';
  constructor(requests: number, firstReason: string) {
    super(`${requests} request(s) will be retried: ${firstReason}`, { requests });
  }
}

/**
 * A request's platform will not take it for a while (its rate window is full, or it asked to
 * wait): with several platforms, the job goes back to the queue for that long rather than hold a
 * worker's slot that another platform's jobs could use (docs/PLATFORMS.md).
 */
export class RateWaitError extends FerryError<'FERRY_RATE_WAIT'> {
  readonly code = 'FERRY_RATE_WAIT';
  readonly waitMs: number;
  constructor(waitMs: number) {
    super(`the platform's rate lets the next request go in ${waitMs} ms`, {});
    this.waitMs = waitMs;
  }
}

/** A run or dead letter that does not exist (or no longer does). Exit code 2. */
export class NotFoundError extends FerryError<'FERRY_NOT_FOUND'> {
  readonly code = 'FERRY_NOT_FOUND';
  override readonly exitCode = 2;
  constructor(what: string, id: string, hint: string) {
    super(`No ${what} "${id}". ${hint}`, { what, id });
  }
}
