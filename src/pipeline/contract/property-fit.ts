/**
 * Whether a profiled column's values can be what a described property allows (type, format,
 * pattern, enum, length), and the field spec that maps it: for `ferry pipeline new`.
 */
import { type Schema, isSchemaObject, typesOf } from '../../interface/index.js';
import { q, type Target } from './draft-targets.js';
import type { ColumnProfile } from './sample-profile.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function patternOf(schema: Schema): RegExp | undefined {
  if (typeof schema.pattern !== 'string') return undefined;
  try {
    return new RegExp(schema.pattern, 'u');
  } catch {
    return undefined;
  }
}

/**
 * The field spec for `column` into `target` and a bonus for a fit of what it holds, or undefined
 * when its values cannot be what the schema allows.
 */
export function fit(
  target: Target,
  column: ColumnProfile,
  negate: boolean,
  currencyColumn: string | undefined,
): { spec: string; bonus: number } | undefined {
  const schema = target.schema;
  const types = typesOf(schema).filter((t) => t !== 'null');
  const col = `column: ${q(column.name)}`;
  const decimal = (extra: string) =>
    `{ ${col}, type: decimal${column.decimalSeparator === ',' ? ", decimalSeparator: ','" : ''}${extra} }`;
  if (column.kind === 'empty') return undefined; // nothing in the sample says it fits
  if (types.includes('array')) {
    const item = isSchemaObject(schema.items) ? typesOf(schema.items) : [];
    if (item.length > 0 && !item.includes('string')) return undefined;
    const separator = [',', '|', ';'].find((s) => column.values.some((v) => v.includes(s)));
    return separator
      ? { spec: `{ ${col}, split: ${q(separator)} }`, bonus: 0 }
      : { spec: `{ array: [{ ${col} }] }`, bonus: 0 };
  }
  if (types.includes('boolean')) {
    if (column.kind !== 'boolean') return undefined;
    return { spec: `{ ${col}, type: boolean${negate ? ', negate: true' : ''} }`, bonus: 10 };
  }
  if (negate) return undefined;
  if (types.includes('integer') && !types.includes('number') && !types.includes('string')) {
    if (column.kind === 'integer') return { spec: `{ ${col}, type: integer }`, bonus: 10 };
    // A decimal amount into an integer: minor units of the currency in the sample's own column.
    if (column.kind === 'decimal' && currencyColumn) {
      return { spec: decimal(`, minorUnits: { column: ${q(currencyColumn)} }`), bonus: 5 };
    }
    return undefined;
  }
  if (types.includes('number') && !types.includes('string')) {
    if (column.kind === 'integer') return { spec: `{ ${col}, type: integer }`, bonus: 5 };
    return column.kind === 'decimal' ? { spec: decimal(''), bonus: 10 } : undefined;
  }
  if (types.length > 0 && !types.includes('string')) return undefined;
  // A string: every value must be one the schema allows.
  const values = column.values;
  if (typeof schema.maxLength === 'number' && column.maxLength > schema.maxLength) return undefined;
  const allowedValues = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
  if (allowedValues && !values.every((v) => allowedValues.includes(v))) return undefined;
  const pattern = patternOf(schema);
  if (pattern && !values.every((v) => pattern.test(v))) return undefined;
  if (schema.format === 'email' && !values.every((v) => EMAIL.test(v))) return undefined;
  if ((schema.format === 'date' || schema.format === 'date-time') && column.kind !== 'date')
    return undefined;
  if (column.kind === 'date') {
    return { spec: `{ ${col}, type: date, formats: [${q(column.dateFormat!)}] }`, bonus: 10 };
  }
  if (column.kind === 'decimal') {
    return { spec: decimal(`, scale: ${column.maxDecimals ?? 0}`), bonus: pattern ? 10 : 0 };
  }
  const currency = /currency/i.test(target.tokens.at(-1)!) || schema.pattern === '^[A-Z]{3}$';
  if (currency && column.kind === 'currency') return { spec: q(column.name), bonus: 20 };
  return { spec: q(column.name), bonus: 0 };
}

/** A key column: filled, and the better for one value per row. */
export function keyFit(column: ColumnProfile): { spec: string; bonus: number } | undefined {
  if (column.kind === 'empty') return undefined;
  const unique = column.filled === column.rows && column.distinct === column.filled;
  return { spec: q(column.name), bonus: unique ? 10 : 0 };
}
