/**
 * An item of the platform -> the rows of an export: the item flattened to paths (`id`,
 * `customer.email`, `tags.0`), and with `explode: lines` one row per element of `lines`, whose
 * fields are read as `lines.<field>` beside the item's own and `lines.#` its position (1, 2, ...).
 * Each field of the pipeline then gives its cell with the import's compiled field (fields.X.column
 * is a path here), typed for the target's writer.
 */
import {
  type ExportDefinition,
  type ExportFieldType,
  ABSENT,
  type FieldIssue,
} from '../pipeline/index.js';

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
): void {
  if (path === skip || value === null || value === undefined) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => flatten(v, path ? `${path}.${i}` : String(i), skip, out));
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, skip, out);
  } else out[path] = String(value);
}

function arrayAt(item: unknown, path: string): unknown[] | undefined {
  let value: unknown = item;
  for (const key of path.split('.')) {
    value =
      value !== null && typeof value === 'object'
        ? (value as Record<string, unknown>)[key]
        : undefined;
  }
  return Array.isArray(value) ? value : undefined;
}

/** Every row of an item, each with all its paths (for custom code that may read any). */
function allPaths(item: unknown, explode: string | undefined): Record<string, string>[] {
  const whole = (element: unknown, position: number): Record<string, string> => {
    // Each row flattened afresh: copying a record of many dotted keys costs V8 far more.
    const fields: Record<string, string> = {};
    flatten(item, '', explode, fields);
    if (explode === undefined) return fields;
    fields[`${explode}.#`] = String(position);
    flatten(element, explode, undefined, fields);
    return fields;
  };
  if (explode === undefined) return [whole(undefined, 0)];
  return (arrayAt(item, explode) ?? []).map((element, i) => whole(element, i + 1));
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return undefined;
}

interface PathRead {
  path: string;
  /** Read from the exploded element (`lines.unitPrice` -> `unitPrice` of the line). */
  inElement: boolean;
  keys: string[];
}

function readAt(from: unknown, keys: readonly string[]): string | undefined {
  let value = from;
  for (const key of keys) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return scalarText(value);
}

/**
 * The rows of an item, each with the paths the fields read (none for an exploded empty array).
 * Only those paths are read, into records of one shape, unless a field runs custom code that
 * may read any path: then each row has every path of the item.
 */
export function rowReader(
  definition: Pick<ExportDefinition, 'explode' | 'paths'>,
): (item: unknown) => Record<string, string>[] {
  const { explode, paths } = definition;
  if (paths === undefined) return (item) => allPaths(item, explode);
  const prefix = explode === undefined ? undefined : `${explode}.`;
  const reads: PathRead[] = paths.map((path) => {
    const inElement = prefix !== undefined && path.startsWith(prefix);
    return { path, inElement, keys: (inElement ? path.slice(prefix.length) : path).split('.') };
  });
  const row = (item: unknown, element: unknown, position: number): Record<string, string> => {
    const fields: Record<string, string> = {};
    for (const r of reads) {
      const text =
        r.inElement && r.keys.length === 1 && r.keys[0] === '#'
          ? String(position)
          : readAt(r.inElement ? element : item, r.keys);
      if (text !== undefined) fields[r.path] = text;
    }
    return fields;
  };
  if (explode === undefined) return (item) => [row(item, undefined, 0)];
  return (item) => (arrayAt(item, explode) ?? []).map((e, i) => row(item, e, i + 1));
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
