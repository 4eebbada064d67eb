/**
 * The source column that feeds a place in an entity's payload (a JSON pointer), for rejected
 * records: `/gtin` -> the column `gtin` is mapped from, `/prices/0/amount` -> the column of the
 * first price's amount. Where no column feeds it (a template, a constant, a property the mapping
 * does not set), the payload's property is named instead.
 */
import type { EntityDefinition } from '../definition/definition-types.js';
import type { FieldSpec } from '../definition/field-schema.js';

function columnOf(spec: FieldSpec | undefined): string | undefined {
  if (!spec) return undefined;
  return spec.column ?? columnOf(spec.fallback);
}

const tokensOf = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));

export function sourceColumn(entity: EntityDefinition, pointer: string): string {
  const [first, ...rest] = tokensOf(pointer);
  if (first === undefined) return entity.name;
  if (first === entity.mapping.keyField) return entity.mapping.keyLabel;
  let spec = (entity.spec.fields as Record<string, FieldSpec>)[first];
  for (const token of rest) {
    if (!spec || spec.column !== undefined) break; // a split column feeds every element
    spec = spec.object ? spec.object[token] : spec.array?.[Number(token)];
  }
  return columnOf(spec) ?? first;
}
