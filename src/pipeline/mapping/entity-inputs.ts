/**
 * What an entity's mapping depends on, so change detection can tell without mapping that an
 * entity's source did not change (input-fingerprint.ts): the columns its key, condition and fields
 * read (or the whole record, where custom code may read any column), and a signature of everything
 * else the result depends on: the entity's spec, the pipeline's lookup tables, the code of the
 * custom functions it names, and the Ferry release (whose conversions and schemas may change).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../config/index.js';
import type { FieldSpec } from '../definition/field-schema.js';
import type { EntityFile } from '../definition/pipeline-schema.js';
import { contentHash } from '../hashing.js';
import { findComputedField, findMerge, findTransform } from '../transforms/index.js';

/** Raise when Ferry changes what a mapping gives for the same input without a new release. */
const MAPPING_REVISION = 1;
const RELEASE = (
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

export interface EntityInputs {
  /** The columns read, sorted; undefined: the whole record (custom code may read any column). */
  columns: string[] | undefined;
  /** Changes whenever the mapping of the same values could give something else. */
  signature: string;
}

interface Walk {
  columns: Set<string>;
  wholeRecord: boolean;
  /** The source text of each custom function named (its code is part of the mapping). */
  code: string[];
}

const PLACEHOLDER = /\{\{|\}\}|\{([^{}]+)\}/g;

function walkField(spec: FieldSpec, walk: Walk): void {
  if (spec.column !== undefined) walk.columns.add(spec.column);
  if (spec.template !== undefined) {
    for (const m of spec.template.matchAll(PLACEHOLDER)) {
      if (m[1] !== undefined) walk.columns.add(m[1].trim());
    }
  }
  for (const child of Object.values(spec.object ?? {})) walkField(child, walk);
  for (const child of spec.array ?? []) walkField(child, walk);
  if (spec.fallback) walkField(spec.fallback, walk);
  if (spec.compute !== undefined) {
    walk.wholeRecord = true;
    walk.code.push(String(findComputedField(spec.compute)));
  }
  for (const name of [spec.transform ?? []].flat()) {
    const transform = findTransform(name);
    if (!transform || transform.readsRecord) walk.wholeRecord = true;
    walk.code.push(transform?.source ?? '');
  }
  if (spec.merge !== undefined) walk.code.push(String(findMerge(spec.merge)));
}

/** The columns these field specs read; undefined when custom code may read any. */
export function columnsRead(specs: readonly FieldSpec[]): string[] | undefined {
  const walk: Walk = { columns: new Set(), wholeRecord: false, code: [] };
  for (const spec of specs) walkField(spec, walk);
  return walk.wholeRecord ? undefined : [...walk.columns].sort();
}

export function entityInputs(
  spec: EntityFile,
  resource: string,
  keyField: string | undefined,
  lookups: unknown,
): EntityInputs {
  const walk: Walk = { columns: new Set(), wholeRecord: false, code: [] };
  walkField(spec.key, walk);
  for (const field of Object.values(spec.fields)) walkField(field, walk);
  if (spec.when?.column !== undefined) walk.columns.add(spec.when.column);
  if (spec.when?.compute !== undefined) {
    walk.wholeRecord = true;
    walk.code.push(String(findComputedField(spec.when.compute)));
  }
  const columns = walk.wholeRecord ? undefined : [...walk.columns].sort();
  const signature = contentHash(
    JSON.stringify([
      MAPPING_REVISION,
      RELEASE,
      resource,
      keyField ?? null,
      spec,
      lookups,
      walk.code,
    ]),
  );
  return { columns, signature };
}
