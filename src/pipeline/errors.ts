import { FerryError } from '../errors/index.js';

export interface MassDeleteDetails {
  pipeline: string;
  /** Deletes the plan would send. */
  deletes: number;
  /** Live entities in state (of the resources the pipeline deletes). */
  inState: number;
  maxShare: number;
  rows: number;
  minRows: number;
  /** The deletes per delete operation. */
  operations: Record<string, number>;
  /** Some of the keys it would delete (at most DELETE_SAMPLE), in state's order. */
  sample: { operationId: string; key: string }[];
  /** The run the guard stopped, once recorded (ferry run, a schedule's tick). */
  runId?: string;
}

/** Keys of the deletes a guard stop shows. */
export const DELETE_SAMPLE = 20;

function percent(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

/**
 * The mass-delete guard (DESIGN.md, Deletes by absence) stopped a plan: it would delete more than
 * the pipeline allows, or the export is shorter than its minimum. Nothing is sent. Exit code 1.
 */
export class MassDeleteGuardError extends FerryError {
  readonly code = 'FERRY_MASS_DELETE_GUARD';

  constructor(details: MassDeleteDetails) {
    const { pipeline, deletes, inState, maxShare, rows, minRows, runId } = details;
    const share = inState > 0 ? deletes / inState : 1;
    const why =
      rows < minRows
        ? `the export has ${rows} rows, fewer than the minimum of ${minRows} (deletes.minRows)`
        : `that is ${percent(share)}, more than the limit of ${percent(maxShare)} (deletes.maxShare)`;
    super(
      `Plan of pipeline "${pipeline}" stopped by the mass-delete guard: it would delete ${deletes} of ` +
        `the ${inState} entities in state; ${why}. Nothing was sent. If the export is complete and ` +
        `these deletes are meant, allow them for this run with --allow-deletes ${deletes}.` +
        (runId ? ` The stop is recorded as run ${runId}.` : ''),
      { ...details },
    );
  }
}

/** Redis (where state lives) does not answer. Exit code 1. */
export class StateUnavailableError extends FerryError {
  readonly code = 'FERRY_REDIS_UNAVAILABLE';

  constructor(where: string, options?: ErrorOptions) {
    super(
      `Redis at ${where} does not answer, and planning needs the sync state kept there. ` +
        'Start Redis or set REDIS_URL to one that runs.',
      { redis: where },
      options,
    );
  }
}

/**
 * A transform read the record's other columns without declaring it (a second parameter, or
 * `readsRecord`): change detection would not see a change in those columns. A defect in the
 * project's custom code, reported at the first record it maps. Exit code 1.
 */
export class UndeclaredRecordReadError extends FerryError {
  readonly code = 'FERRY_TRANSFORM_UNDECLARED_READ';

  constructor(transform: string) {
    super(
      `Transform "${transform}" read the record's other columns (context.fields) but was ` +
        `registered as reading only its value. Declare the context as its second parameter, ` +
        `(value, { fields }) => ..., or register it with { readsRecord: true }, so change ` +
        `detection knows its entity depends on the whole record.`,
      { transform },
    );
  }
}

/**
 * A lookup file that cannot be used (DESIGN.md, Lookups from files): missing, or without a column
 * the lookup names (exit code 2, like any configuration mistake), a key that repeats or records
 * that could not be read (exit code 1). The plan stops before anything is sent.
 */
export class LookupFileError extends FerryError {
  readonly code = 'FERRY_LOOKUP';
  override readonly exitCode: number;

  constructor(message: string, details: Record<string, unknown>, exitCode: 1 | 2) {
    super(message, details);
    this.exitCode = exitCode;
  }
}
