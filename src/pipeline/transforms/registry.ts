/**
 * Custom code: TypeScript functions registered by name, which a pipeline names in a field's
 * `transform`, `compute` or `merge`. Config never carries code; it can only pick from what the
 * project registered here.
 */
import { UndeclaredRecordReadError } from '../errors.js';

/** What a transform sees besides the value: the whole record's fields (read-only). */
export interface TransformContext {
  fields: Readonly<Record<string, string>>;
}

/**
 * Takes the (trimmed) text and returns the new text; `undefined` means "no value". Throw a
 * TransformRejection to reject the record with a message that says what was expected.
 */
export type Transform = (value: string, context: TransformContext) => string | undefined;

export class TransformRejection extends Error {}

/** A transform as registered. */
export interface RegisteredTransform {
  /** Calls it; one that does not read the record gets a context that refuses access. */
  readonly apply: Transform;
  /** Its code: part of its entity's mapping signature (entity-inputs.ts). */
  readonly source: string;
  /** It reads the record's other columns, so its entity's input is the whole record. */
  readonly readsRecord: boolean;
}

export interface TransformOptions {
  /** Default: whether the function declares a second parameter. */
  readsRecord?: boolean;
}

const REGISTRY = new Map<string, RegisteredTransform>();

/**
 * Change detection skips a record whose entities read the same columns as last time, so which
 * columns a transform reads must be known: one declared with a second parameter (or with
 * `readsRecord`) may read any; any other gets a context whose `fields` throws, so an undeclared
 * read (through `arguments`, a rest or a defaulted parameter) fails loudly at the first record
 * instead of letting a change in that column go unsent.
 */
export function registerTransform(
  name: string,
  transform: Transform,
  options: TransformOptions = {},
): void {
  if (REGISTRY.has(name)) throw new Error(`a transform named "${name}" is already registered`);
  const readsRecord = options.readsRecord ?? transform.length > 1;
  const sealed = readsRecord ? undefined : sealedContext(name);
  REGISTRY.set(name, {
    apply: sealed ? (value) => transform(value, sealed) : transform,
    source: String(transform),
    readsRecord,
  });
}

function sealedContext(name: string): TransformContext {
  return {
    get fields(): never {
      throw new UndeclaredRecordReadError(name);
    },
  };
}

export function findTransform(name: string): RegisteredTransform | undefined {
  return REGISTRY.get(name);
}

export function transformNames(): string[] {
  return [...REGISTRY.keys()].sort();
}

/**
 * A computed field (`compute: NAME`): a value made from the whole record, for what a field spec
 * cannot say, e.g. one price per `price-<CUR>` column, whichever currencies the export has.
 * Returns the value, an error that rejects the record (naming the column), or undefined for no value.
 */
export type ComputedField = (
  fields: Readonly<Record<string, string>>,
) => { value: unknown } | { error: string; field: string } | undefined;

/**
 * A merge (`merge: NAME`) of a grouped entity's field: the value so far and a later row's value
 * (either undefined when that row gave none) -> the merged value.
 */
export type MergeFunction = (current: unknown, next: unknown) => unknown;

const COMPUTED = new Map<string, ComputedField>();
const MERGES = new Map<string, MergeFunction>();

export function registerComputedField(name: string, compute: ComputedField): void {
  if (COMPUTED.has(name)) throw new Error(`a computed field named "${name}" is already registered`);
  COMPUTED.set(name, compute);
}

export function findComputedField(name: string): ComputedField | undefined {
  return COMPUTED.get(name);
}

export function computedFieldNames(): string[] {
  return [...COMPUTED.keys()].sort();
}

export function registerMerge(name: string, merge: MergeFunction): void {
  if (MERGES.has(name)) throw new Error(`a merge named "${name}" is already registered`);
  MERGES.set(name, merge);
}

export function findMerge(name: string): MergeFunction | undefined {
  return MERGES.get(name);
}

export function mergeNames(): string[] {
  return [...MERGES.keys()].sort();
}
