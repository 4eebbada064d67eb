import type { ConfigIssue } from '../../errors/index.js';
import type { LookupTable } from '../lookups/lookup-table.js';

/** A field that gives no value (empty column, no default): left out of the payload. */
export const ABSENT: unique symbol = Symbol('absent');
export type Absent = typeof ABSENT;

/** Why a record is rejected: the source column (or payload field) and what was expected. */
export interface FieldIssue {
  field: string;
  message: string;
  /** The JSON pointer in the payload, for a rule of the platform's request schema. */
  path?: string;
}

/**
 * A compiled field: reads a record's fields and returns the value, or ABSENT. Problems are pushed
 * onto `issues` (then the record is rejected); the function never throws for bad data.
 */
export type FieldFn = (fields: Readonly<Record<string, string>>, issues: FieldIssue[]) => unknown;

/** What compiling needs: the pipeline's lookup tables, and where to put configuration problems. */
export interface CompileContext {
  lookups: Readonly<Record<string, LookupTable>>;
  issues: ConfigIssue[];
}
