/**
 * An item of the platform -> the rows of an export: the item flattened to paths (`id`,
 * `customer.email`, `tags.0`), and with `explode: lines` one row per element of `lines`, whose
 * fields are read as `lines.<field>` beside the item's own and `lines.#` its position (1, 2, ...).
 * Each field of the pipeline then gives its cell with the import's compiled field (fields.X.column
 * is a path here), typed for the target's writer.
 */
import type { ExportDefinition } from '../pipeline/definition/export-types.js';
import type { ExportFieldType } from '../pipeline/definition/export-schema.js';
import { ABSENT, type FieldIssue } from '../pipeline/mapping/field-types.js';

/** A cell as the writers take it: canonical text (a decimal with a point, a formatted date). */
export type Cell = { type: ExportFieldType; text: string } | null;

export class RowProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function flatten(
  value: unknown,
  path: string,
  skip: string | undefined,
  out: Record<string, string>,
) {
  if (path === skip || value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => flatten(v, path ? `${path}.${i}` : String(i), skip, out));
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, skip, out);
  } else out[path] = String(value);
}

/** The flattened fields of each row the item gives (none for an exploded empty array). */
export function rowFields(item: unknown, explode: string | undefined): Record<string, string>[] {
  const base: Record<string, string> = {};
  flatten(item, '', explode, base);
  if (explode === undefined) return [base];
  let elements: unknown = item;
  for (const key of explode.split('.')) {
    elements =
      elements !== null && typeof elements === 'object'
        ? (elements as Record<string, unknown>)[key]
        : undefined;
  }
  if (!Array.isArray(elements)) return [];
  return elements.map((element, i) => {
    const fields = { ...base, [`${explode}.#`]: String(i + 1) };
    flatten(element, explode, undefined, fields);
    return fields;
  });
}

function cellOf(type: ExportFieldType, value: unknown): string {
  if (type === 'boolean' && typeof value === 'boolean') return value ? 'true' : 'false';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Compiles the fields of a definition into a row builder; throws RowProblem for a bad value. */
export function rowBuilder(
  definition: ExportDefinition,
): (fields: Record<string, string>) => Cell[] {
  return (fields) => {
    const issues: FieldIssue[] = [];
    const cells = definition.fields.map((field): Cell => {
      const value = field.value(fields, issues);
      if (value === ABSENT || value === undefined || value === null) return null;
      let text = cellOf(field.type, value);
      if (field.writeDate) {
        const written = field.writeDate(text);
        if ('error' in written) throw new RowProblem(field.name, written.error);
        text = written.value;
      }
      return { type: field.type, text };
    });
    const first = issues[0];
    if (first) throw new RowProblem(first.field, first.message);
    return cells;
  };
}
