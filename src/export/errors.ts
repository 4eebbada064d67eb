/** Errors of exports (docs/EXPORTS.md). Each stops the run before its cursor moves: exit 1. */
import { FerryError } from '../errors/index.js';

/**
 * The run's file name is taken by a file the pipeline did not leave unfinished (a pattern such as
 * `orders-{date}.csv` run twice a day): nothing is overwritten.
 */
export class ExportFileExistsError extends FerryError<'FERRY_EXPORT_FILE_EXISTS'> {
  readonly code = 'FERRY_EXPORT_FILE_EXISTS';
  constructor(pipeline: string, path: string) {
    super(
      `Export "${pipeline}" would write ${path}, which exists already: nothing was overwritten and ` +
        'the cursor did not move. Move the file away, or give target.file a placeholder that ' +
        'differs from run to run ({seq}, {to}, {time}).',
      { pipeline, path },
    );
  }
}

/**
 * The platform's listing cannot be exported exactly once: an item without the cursor's field, a
 * page that is not a list of items, or items out of the cursor's order (a listing sorted another
 * way would skip or repeat items between pages).
 */
export class ExportListingError extends FerryError<'FERRY_EXPORT_LISTING'> {
  readonly code = 'FERRY_EXPORT_LISTING';
  constructor(operationId: string, problem: string, details: Record<string, unknown> = {}) {
    super(`${operationId}: ${problem}. Nothing was written and the cursor did not move.`, {
      operationId,
      ...details,
    });
  }
}

/**
 * An item that cannot be written: a field its mapping rejects (required but empty, a decimal that
 * is not one), or a character the file's encoding cannot hold.
 */
export class ExportRecordError extends FerryError<'FERRY_EXPORT_RECORD'> {
  readonly code = 'FERRY_EXPORT_RECORD';
  constructor(pipeline: string, cursor: string, field: string, problem: string) {
    super(
      `Export "${pipeline}": item ${cursor}, field ${field}: ${problem}. Nothing was written and ` +
        'the cursor did not move.',
      { pipeline, item: cursor, field },
    );
  }
}

/**
 * The run's hold on its pipeline lapsed (its process stalled past the lock's expiry), so another
 * run may have the pipeline: this one moves nothing. A file it published stays, and its range is
 * still pending, so the next run publishes the same range under the same name.
 */
export class ExportLockLostError extends FerryError<'FERRY_RUN_LOCK_LOST'> {
  readonly code = 'FERRY_RUN_LOCK_LOST';
  constructor(pipeline: string, runId: string) {
    super(
      `Export run ${runId} lost pipeline "${pipeline}"'s lock (the process stalled past its ` +
        'expiry): the cursor did not move. The next run publishes the same range under the same ' +
        'file name.',
      { pipeline, runId },
    );
  }
}

/** Ctrl-C or SIGTERM while the export read: nothing was published and the cursor did not move. */
export class ExportInterruptedError extends FerryError<'FERRY_INTERRUPTED'> {
  readonly code = 'FERRY_INTERRUPTED';
  constructor(pipeline: string) {
    super(
      `Export "${pipeline}" was stopped (Ctrl-C or SIGTERM): nothing was published and the ` +
        'cursor did not move.',
      { pipeline },
    );
  }
}

/** The target folder refused a write (no such folder, no permission, a full disk). */
export class ExportWriteError extends FerryError<'FERRY_EXPORT_WRITE'> {
  readonly code = 'FERRY_EXPORT_WRITE';
  constructor(pipeline: string, error: NodeJS.ErrnoException) {
    const where = error.path ?? 'the target folder';
    super(
      `Export "${pipeline}" could not write ${where} (${error.code ?? error.name}, ` +
        `${error.syscall ?? 'write'}): the cursor did not move.`,
      { pipeline, path: where, errno: error.code },
    );
  }
}
