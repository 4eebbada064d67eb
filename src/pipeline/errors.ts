import {
  type BodyShapeDetails,
  FerryError,
  type InputDetails,
  type MassDeleteDetails,
} from '../errors/index.js';

export type { MassDeleteDetails };

/** Keys of the deletes a guard stop shows. */
export const DELETE_SAMPLE = 20;

function percent(share: number): string {
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

/**
 * The mass-delete guard (docs/PIPELINES.md, Change detection and state) stopped a plan: it would
 * delete more than the pipeline allows, or the export is shorter than its minimum. Nothing is sent.
 * Exit code 1.
 */
export class MassDeleteGuardError extends FerryError<'FERRY_MASS_DELETE_GUARD'> {
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

/**
 * A planned body (a delete's keys, a patch's changed fields) that Ferry cannot build in the shape
 * the platform's description states: the plan stops before anything is sent, naming the operation,
 * the shape Ferry builds and the pointer. Exit 2, like a binding that does not fit.
 */
export class BodyShapeError extends FerryError<'FERRY_CONTRACT_SHAPE'> {
  readonly code = 'FERRY_CONTRACT_SHAPE';
  override readonly exitCode = 2;

  constructor(details: BodyShapeDetails) {
    const { pipeline, operationId, shape, pointer, message, describedAt, key } = details;
    super(
      `Plan of pipeline "${pipeline}" stopped: ${operationId} cannot be sent as the description ` +
        `(${describedAt}) states it. Ferry builds ${shape}; for key "${key}" the body at ` +
        `${pointer || '/'} ${message}. Nothing was sent. Set interface.bindings.${operationId} ` +
        '(deleteStyle, envelope, keyField) to the described shape (docs/INTERFACE.md, Bindings).',
      { ...details },
    );
  }
}

/**
 * A transform read the record's other columns without declaring it (a second parameter, or
 * `readsRecord`): change detection would not see a change in those columns. A defect in the
 * project's custom code, reported at the first record it maps. Exit code 1.
 */
export class UndeclaredRecordReadError extends FerryError<'FERRY_TRANSFORM_UNDECLARED_READ'> {
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
 * A lookup file that cannot be used (docs/PIPELINES.md, Lookups from files): missing, or without a
 * column the lookup names (exit code 2, like any configuration mistake), a key that repeats or
 * records that could not be read (exit code 1). The plan stops before anything is sent.
 */
export class LookupFileError extends FerryError<'FERRY_LOOKUP'> {
  readonly code = 'FERRY_LOOKUP';
  override readonly exitCode: number;

  constructor(message: string, details: InputDetails, exitCode: 1 | 2) {
    super(message, details);
    this.exitCode = exitCode;
  }
}

/**
 * The input lacks the column an entity's key is read from: not one of its records could give a
 * key, so the plan stops with this one error (naming the file, the columns it has and the closest
 * name) rather than one rejected row per record. Exit code 1.
 */
export class MissingKeyColumnError extends FerryError<'FERRY_INPUT_INVALID'> {
  readonly code = 'FERRY_INPUT_INVALID';
}
