/**
 * Keys of a pipeline that name a payload field (a guard's `field` / `fields`) must name one its
 * entities' mappings build (docs/PIPELINES.md, Paths in the config): a guard watching a field no
 * payload has would read "0 of 42" and never trip. Checked when the pipeline loads, so
 * `ferry config check`, `interface check`, `plan` and `run` all stop on it (exit 2), naming the key,
 * the fields that exist and the closest of them.
 */
import { didYouMean } from '../../base/index.js';
import type { ConfigIssue } from '../../errors/index.js';
import type { FieldSpec, JsonValue } from './field-schema.js';
import type { EntityDefinition } from './definition-types.js';
import type { PipelineFile } from './pipeline-schema.js';

/** What a field spec builds: a scalar, any shape (custom code), or named parts ('*': any index). */
type Built = 'leaf' | 'any' | Map<string, Built>;

function union(a: Built, b: Built): Built {
  if (a === 'any' || b === 'any') return 'any';
  if (a === 'leaf') return b;
  if (b === 'leaf') return a;
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, out.has(k) ? union(out.get(k)!, v) : v);
  return out;
}

function ofValue(value: JsonValue): Built {
  if (value === null || typeof value !== 'object') return 'leaf';
  const entries = Array.isArray(value)
    ? value.map((v, i) => [String(i), v] as const)
    : Object.entries(value);
  return new Map(entries.map(([k, v]) => [k, ofValue(v)]));
}

function ofSpec(spec: FieldSpec): Built {
  let built: Built;
  if (spec.compute !== undefined) return 'any';
  if (spec.object) {
    built = new Map(Object.entries(spec.object).map(([k, s]) => [k, ofSpec(s)]));
  } else if (spec.array) built = new Map(spec.array.map((s, i) => [String(i), ofSpec(s)]));
  else if (spec.value !== undefined) built = ofValue(spec.value);
  else built = spec.split !== undefined ? new Map([['*', 'leaf' as Built]]) : 'leaf';
  if (spec.fallback) built = union(built, ofSpec(spec.fallback));
  if (spec.default !== undefined) built = union(built, ofValue(spec.default));
  return built;
}

/** The payload an entity's mapping builds, its key field included. */
function builtBy(entity: EntityDefinition): Built {
  const fields = new Map<string, Built>();
  for (const [name, spec] of Object.entries(entity.spec.fields)) fields.set(name, ofSpec(spec));
  const keyField = entity.mapping.keyField;
  if (keyField !== undefined) fields.set(keyField, 'leaf');
  return fields;
}

function builds(built: Built, tokens: readonly string[]): boolean {
  let at = built;
  for (const token of tokens) {
    if (at === 'any') return true;
    if (at === 'leaf') return false;
    const next = at.get(token) ?? (/^\d+$/.test(token) ? at.get('*') : undefined);
    if (next === undefined) return false;
    at = next;
  }
  return true;
}

/** Every dotted path to a scalar (or an open shape) of `built`: what a message offers instead. */
function leafPaths(built: Built, prefix: string, out: Set<string>): void {
  if (built === 'leaf' || built === 'any') {
    if (prefix) out.add(prefix);
    return;
  }
  for (const [k, v] of built) leafPaths(v, prefix ? `${prefix}.${k === '*' ? '0' : k}` : k, out);
}

/** The keys of `file` that name payload fields, with the dotted path each names. */
function namedPaths(file: PipelineFile): { key: string; path: string }[] {
  const guards = file.guards;
  const out: { key: string; path: string }[] = [];
  if (guards?.changedShare)
    out.push({ key: 'guards.changedShare.field', path: guards.changedShare.field });
  if (guards?.valueChange)
    out.push({ key: 'guards.valueChange.field', path: guards.valueChange.field });
  guards?.emptied?.fields.forEach((path, i) =>
    out.push({ key: `guards.emptied.fields.${i}`, path }),
  );
  return out;
}

/** An issue per key that names a field no entity of the pipeline builds. */
export function checkPayloadPaths(
  file: PipelineFile,
  entities: readonly EntityDefinition[],
): ConfigIssue[] {
  const named = namedPaths(file);
  if (named.length === 0) return [];
  const built = entities.map(builtBy);
  const issues: ConfigIssue[] = [];
  for (const { key, path } of named) {
    const tokens = path.split('.');
    if (built.some((b) => builds(b, tokens))) continue;
    const known = new Set<string>();
    for (const b of built) leafPaths(b, '', known);
    const fields = [...known].sort();
    issues.push({
      path: key,
      message:
        `"${path}" is not a field the mapping builds, so nothing would be watched ` +
        `(fields: ${fields.join(', ') || 'none'}).${didYouMean(path, fields)}`,
    });
  }
  return issues;
}
