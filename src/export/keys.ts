/** Every Redis key the export layer builds. */

/**
 * An export pipeline's state hash (export-state.ts), under the delivery keys' `{q}` hash tag: in
 * the slot of the run records and the pipeline's lock, so one script can check the lock, move the
 * cursor and finish the run.
 */
export function exportStateKey(prefix: string, pipeline: string): string {
  return `${prefix}:{q}:export:${pipeline}`;
}
