/**
 * One source record -> the entities it gives, or one RowError that says why the record is
 * rejected (file, line, field, what was expected). A record is accepted or rejected as a whole:
 * when any of its entities fails, nothing is planned for it.
 */
import type { EntityDefinition, PipelineDefinition } from '../definition/definition-types.js';
import type { ChangeKind } from '../types.js';
import type { RowError, SourceRecord, SourceRef } from '../../base/index.js';
import { mapKey, mapPayload } from './compile-entity.js';
import type { FieldIssue } from './field-types.js';
import type { KeyRegistry, MappedEntity } from './key-registry.js';

export type MapResult = { entities: MappedEntity[] } | { error: RowError };

const MAX_ISSUES_IN_MESSAGE = 3;

export function rowError(source: SourceRef, issues: readonly FieldIssue[], key?: string): RowError {
  // Entities that share a column (the key of product and price) report its problem once.
  const distinct = [...new Set(issues.map((i) => `${i.field}: ${i.message}`))];
  const shown = distinct.slice(0, MAX_ISSUES_IN_MESSAGE);
  const more = distinct.length - shown.length;
  const error: RowError = {
    file: source.file,
    line: source.line,
    field: issues[0]?.field,
    message: shown.join('; ') + (more > 0 ? ` (and ${more} more)` : ''),
  };
  const path = issues[0]?.path;
  if (path !== undefined) error.path = path;
  if (key !== undefined) error.key = key;
  return error;
}

function changeKind(
  definition: PipelineDefinition,
  fields: Readonly<Record<string, string>>,
  issues: FieldIssue[],
): ChangeKind | undefined {
  const changeType = definition.changeType;
  if (!changeType) return 'upsert';
  const raw = (fields[changeType.column] ?? '').trim();
  const kind = changeType.values[raw];
  if (!kind) {
    issues.push({
      field: changeType.column,
      message: `expected one of ${Object.keys(changeType.values).join(', ')}, got "${raw}"`,
    });
  }
  return kind;
}

// Scratch arrays, reused by every call (mapRecord is synchronous): a million rows would otherwise
// allocate millions of short-lived arrays.
const issues: FieldIssue[] = [];
const own: FieldIssue[] = [];
const keys: (string | undefined)[] = [];

/**
 * `knownKeys`: the record's key per entity index (undefined: the entity's condition is false), as
 * the planner read them already without issues; they are then not made again.
 */
export function mapRecord(
  definition: PipelineDefinition,
  registry: KeyRegistry,
  record: SourceRecord,
  knownKeys?: readonly (string | undefined)[],
): MapResult {
  const fields = record.fields;
  issues.length = 0;
  const kind = changeKind(definition, fields, issues);
  if (!kind) return { error: rowError(record.source, issues) };
  const changes = definition.mode === 'changes';
  const mapped: MappedEntity[] = [];
  const entities = definition.entities;
  keys.length = entities.length;
  // The key of the first entity with a problem: the one the rejected row is about.
  let rejectedKey: string | undefined;
  for (let i = 0; i < entities.length; i++) {
    const entity = entities[i] as EntityDefinition;
    keys[i] = undefined;
    if (changes && !entity.on.has(kind)) continue;
    const plan = entity.mapping;
    let key: string | undefined;
    if (knownKeys) key = knownKeys[i];
    else if (!plan.when || plan.when(fields)) key = mapKey(plan, fields, issues);
    if (key === undefined) continue;
    keys[i] = key;
    if (registry.alreadyGiven(entity, key)) continue;
    let payload: Record<string, unknown> | undefined;
    if (kind !== 'delete') {
      own.length = 0;
      const whole = entity.duplicates !== 'group'; // a group is checked once all its rows are in
      payload = mapPayload(plan, key, fields, own, kind, whole);
      if (whole && own.length === 0) entity.contract?.check(payload, kind, own);
      if (own.length > 0) {
        issues.push(...own);
        rejectedKey ??= key;
        continue;
      }
    }
    const repeat = registry.repeatOf(entity, key);
    if (repeat !== undefined) {
      issues.push({
        field: plan.keyLabel,
        message: `"${key}" repeats the key of the record on line ${repeat}`,
      });
      rejectedKey ??= key;
      continue;
    }
    mapped.push({ entity, key, payload, kind, source: record.source });
  }
  if (issues.length > 0) {
    for (let i = 0; i < entities.length; i++) {
      const key = keys[i];
      if (key !== undefined) registry.spare(entities[i] as EntityDefinition, key);
    }
    return { error: rowError(record.source, issues, rejectedKey) };
  }
  return { entities: registry.admit(mapped) };
}
