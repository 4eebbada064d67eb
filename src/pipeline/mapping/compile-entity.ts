/**
 * Compiles one entity of a pipeline: its key, its `when` condition, its fields (sorted, with the
 * key field placed among them for collection operations) and its resource schema check.
 */
import { invisibleProblem, stripInvisible, type InvisibleMode } from '../../../connectors/index.js';
import type { MergeMode } from '../definition/field-schema.js';
import type { EntityFile, WhenSpec } from '../definition/pipeline-schema.js';
import { compileQuickCheck, type QuickCheck } from '../fast-check.js';
import { schemaFor, type ResourceSchema } from '../resource-schemas.js';
import type { ChangeKind } from '../types.js';
import type { MergeFunction } from '../transforms/index.js';
import { compileComputedWhen, compileMerge } from './compile-custom.js';
import { compileField } from './compile-field.js';
import { lookupIdentities } from '../lookups/lookup-table.js';
import { entityInputs, type EntityInputs } from './entity-inputs.js';
import { ABSENT, type CompileContext, type FieldFn, type FieldIssue } from './field-types.js';

export interface CompiledField {
  name: string;
  fn: FieldFn;
  /** A merge mode, or a registered merge function. */
  merge: MergeMode | MergeFunction;
}

export interface MappingPlan {
  /** Name in errors and in `sendWithNew`. */
  name: string;
  resource: string;
  /** The payload field that carries the key (collection operations), or undefined. */
  keyField: string | undefined;
  key: FieldFn;
  keyLabel: string;
  /**
   * The column the key is read from when nothing else can give it (no fallback, no default): a
   * file without that column cannot give a single key.
   */
  keyColumn: string | undefined;
  /** What a key holding an invisible character does: rejects its record, or loses them. */
  invisibleInKey: InvisibleMode;
  /** Equal for entities whose key comes from the same spec (they may share key tracking). */
  keySignature: string;
  when: ((fields: Readonly<Record<string, string>>) => boolean) | undefined;
  /** Fields in sorted order; the key field is not among them (it is inserted from the key). */
  fields: CompiledField[];
  schema: ResourceSchema | undefined;
  /** Schema of a partial payload (PATCH). */
  patchSchema: ResourceSchema | undefined;
  /** Quick yes/no checks compiled from the schemas (zod is asked only when they say no). */
  quick: QuickCheck | undefined;
  quickPatch: QuickCheck | undefined;
  /** What the mapping reads and depends on, for input fingerprints. */
  inputs: EntityInputs;
}

type WhenFn = (fields: Readonly<Record<string, string>>) => boolean;

function compileWhen(when: WhenSpec, path: string, ctx: CompileContext): WhenFn {
  if (when.compute !== undefined) {
    return compileComputedWhen(when.compute, `${path}.when.compute`, ctx);
  }
  const column = when.column ?? '';
  if (when.notEmpty !== undefined) {
    const want = when.notEmpty;
    return (f) => ((f[column] ?? '').trim() !== '') === want;
  }
  if (when.equals !== undefined) {
    const v = when.equals;
    return (f) => (f[column] ?? '').trim() === v;
  }
  const set = new Set(when.in ?? []);
  return (f) => set.has((f[column] ?? '').trim());
}

export function compileMapping(
  entity: EntityFile,
  resource: string,
  keyField: string | undefined,
  path: string,
  ctx: CompileContext,
): MappingPlan {
  const name = entity.name ?? resource;
  const schemaName = entity.schema ?? resource;
  const schema = schemaName === 'none' ? undefined : schemaFor(schemaName, keyField);
  if (entity.schema && entity.schema !== 'none' && !schema) {
    ctx.issues.push({ path: `${path}.schema`, message: `no resource schema "${entity.schema}"` });
  }
  const fields: CompiledField[] = [];
  for (const fieldName of Object.keys(entity.fields).sort()) {
    const spec = entity.fields[fieldName];
    if (!spec) continue;
    const fieldPath = `${path}.fields.${fieldName}`;
    if (fieldName === keyField) {
      ctx.issues.push({
        path: fieldPath,
        message: `${keyField} is the entity's key: set it with \`key:\`, not as a field`,
      });
      continue;
    }
    if (schema && !(fieldName in schema.shape)) {
      ctx.issues.push({
        path: fieldPath,
        message: `not a field of ${schemaName} (fields: ${Object.keys(schema.shape).join(', ')})`,
      });
    }
    fields.push({
      name: fieldName,
      fn: compileField(spec, fieldPath, ctx),
      merge: compileMerge(spec.merge ?? 'first', `${fieldPath}.merge`, ctx),
    });
  }
  const keySpec = entity.key;
  const patchSchema = schema?.partial() as ResourceSchema | undefined;
  return {
    name,
    resource,
    keyField,
    key: compileField(keySpec, `${path}.key`, ctx),
    keyLabel: keySpec.column ?? `${name} key`,
    keyColumn:
      keySpec.fallback === undefined && keySpec.default === undefined ? keySpec.column : undefined,
    invisibleInKey: entity.invisibleInKey,
    keySignature: JSON.stringify([keySpec, entity.invisibleInKey]),
    when: entity.when ? compileWhen(entity.when, path, ctx) : undefined,
    fields,
    schema,
    patchSchema,
    quick: schema && compileQuickCheck(schema),
    quickPatch: patchSchema && compileQuickCheck(patchSchema),
    inputs: entityInputs(entity, resource, keyField, lookupIdentities(ctx.lookups)),
  };
}

/**
 * The key as a non-empty string, or undefined with an issue (a key is always required). A key
 * holding an invisible character would look like another and be a different entity: rejected
 * naming the code point, or (invisibleInKey: strip) stripped of such characters.
 */
export function mapKey(
  plan: MappingPlan,
  fields: Readonly<Record<string, string>>,
  issues: FieldIssue[],
): string | undefined {
  const before = issues.length;
  const value = plan.key(fields, issues);
  if (issues.length > before) return undefined;
  let key = value === ABSENT || value === null || typeof value === 'object' ? '' : String(value);
  const problem = key === '' ? undefined : invisibleProblem(key);
  if (problem && plan.invisibleInKey === 'reject') {
    issues.push({
      field: plan.keyLabel,
      message: `the key ${problem}: correct the export, or give the entity invisibleInKey: strip`,
    });
    return undefined;
  }
  if (problem) key = stripInvisible(key).trim();
  if (key === '') {
    issues.push({ field: plan.keyLabel, message: 'required (it is the key), but empty' });
    return undefined;
  }
  return key;
}

/**
 * Builds the payload with keys in sorted order (so JSON.stringify of it is canonical) and checks
 * it against the resource schema when `check` (pass a fresh `issues` array).
 */
export function mapPayload(
  plan: MappingPlan,
  key: string,
  fields: Readonly<Record<string, string>>,
  issues: FieldIssue[],
  kind: ChangeKind = 'upsert',
  check = true,
): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  const keyField = plan.keyField;
  let keyPlaced = keyField === undefined;
  for (const f of plan.fields) {
    if (!keyPlaced && (keyField as string) < f.name) {
      payload[keyField as string] = key;
      keyPlaced = true;
    }
    const v = f.fn(fields, issues);
    if (v !== ABSENT) payload[f.name] = v;
  }
  if (!keyPlaced) payload[keyField as string] = key;
  if (check && issues.length === 0) checkSchema(plan, payload, issues, kind === 'patch');
  return payload;
}

/** Checks a payload against the resource schema; problems name the payload field. */
export function checkSchema(
  plan: MappingPlan,
  payload: Record<string, unknown>,
  issues: FieldIssue[],
  partial: boolean,
): void {
  const schema = partial ? plan.patchSchema : plan.schema;
  if (!schema) return;
  const quick = partial ? plan.quickPatch : plan.quick;
  if (quick?.(payload)) return;
  const result = schema.safeParse(payload);
  if (result.success) return;
  for (const issue of result.error.issues.slice(0, 3)) {
    const field = issue.path.map(String).join('.') || plan.name;
    let value: unknown = payload;
    for (const p of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[p];
    const message =
      value === undefined && issue.code === 'invalid_type'
        ? `required by the ${plan.resource} schema, but the mapping gave no value`
        : `${issue.message} (${plan.resource} schema)`;
    issues.push({ field, message });
  }
}
