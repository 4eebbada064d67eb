/**
 * The parts of a pipeline that name registered code (transforms/registry.ts): a computed field
 * (`compute`), a condition on one (`when: {compute}`), a registered merge of grouped rows. A name
 * nothing registered is a config issue at its path, listing what is registered.
 */
import { MERGE_MODES, type MergeMode } from '../definition/field-schema.js';
import {
  computedFieldNames,
  findComputedField,
  findMerge,
  mergeNames,
  type ComputedField,
  type MergeFunction,
} from '../transforms/index.js';
import { ABSENT, type CompileContext, type FieldFn } from './field-types.js';

function findComputed(name: string, path: string, ctx: CompileContext): ComputedField | undefined {
  const compute = findComputedField(name);
  if (!compute) {
    const known = computedFieldNames().join(', ') || 'none';
    ctx.issues.push({ path, message: `no computed field named "${name}" (registered: ${known})` });
  }
  return compute;
}

/** `compute: NAME` -> the field; an error it gives rejects the record, naming its column. */
export function compileComputed(name: string, path: string, ctx: CompileContext): FieldFn {
  const compute = findComputed(name, path, ctx);
  if (!compute) return () => ABSENT;
  return (fields, issues) => {
    const result = compute(fields);
    if (result === undefined) return ABSENT;
    if ('error' in result) {
      issues.push({ field: result.field, message: result.error });
      return ABSENT;
    }
    return result.value;
  };
}

/**
 * `when: {compute: NAME}` -> the record gives the entity when the computation gives a value, or
 * an error (which the field that computes it then reports).
 */
export function compileComputedWhen(
  name: string,
  path: string,
  ctx: CompileContext,
): (fields: Readonly<Record<string, string>>) => boolean {
  const compute = findComputed(name, path, ctx);
  return compute ? (fields) => compute(fields) !== undefined : () => false;
}

/** A field's `merge`: one of the modes, or a registered merge function. */
export function compileMerge(
  name: string,
  path: string,
  ctx: CompileContext,
): MergeMode | MergeFunction {
  if ((MERGE_MODES as readonly string[]).includes(name)) return name as MergeMode;
  const merge = findMerge(name);
  if (merge) return merge;
  ctx.issues.push({
    path,
    message: `expected one of ${[...MERGE_MODES, ...mergeNames()].join(', ')}, got "${name}"`,
  });
  return 'first';
}
