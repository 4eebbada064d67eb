/**
 * A profile of a sample export's columns for `ferry pipeline new` (new-pipeline.ts): what each
 * column holds (whole numbers, decimals and their separator, yes/no words, dates, ISO 4217 codes,
 * text), how many of its values are filled and distinct, and how long they get. The draft matches
 * it against the described properties' types, formats and patterns, so a column is mapped where
 * its values fit, not only where its name sounds right.
 */
import { isCurrencyCode } from '../../base/index.js';
import { DEFAULT_FALSE, DEFAULT_TRUE } from '../convert/boolean.js';
import { defaultGroups, parseDecimal } from '../convert/decimal.js';

export type ColumnKind = 'empty' | 'integer' | 'decimal' | 'boolean' | 'date' | 'currency' | 'text';

export interface ColumnProfile {
  name: string;
  kind: ColumnKind;
  /** Records in the sample, and those with a value in this column. */
  rows: number;
  filled: number;
  /** Distinct values among the filled ones. */
  distinct: number;
  maxLength: number;
  /** Decimals: the separator the values use, and the most digits after it. */
  decimalSeparator?: ',' | '.';
  maxDecimals?: number;
  /** Dates: the format every value has. */
  dateFormat?: string;
  /** The distinct values (at most MAX_VALUES), as plain text: decimals with a `.` point. */
  values: string[];
}

const MAX_VALUES = 200;
const WORDS = new Set<string>([...DEFAULT_TRUE, ...DEFAULT_FALSE].filter((w) => !/\d/.test(w)));
const INTEGER = /^[-+]?\d+$/;
const DATES: readonly [RegExp, string][] = [
  [/^\d{1,2}\.\d{1,2}\.\d{4}$/, 'dd.mm.yyyy'],
  [/^\d{4}-\d{2}-\d{2}$/, 'yyyy-mm-dd'],
  [/^\d{1,2}\/\d{1,2}\/\d{4}$/, 'dd/mm/yyyy'],
];

/** The decimals of `values` with the separator that reads all of them, or undefined. */
function asDecimals(
  values: readonly string[],
): { separator: ',' | '.'; plain: string[] } | undefined {
  for (const separator of ['.', ','] as const) {
    const format = { separator, groups: defaultGroups(separator) };
    const plain: string[] = [];
    for (const v of values) {
      const r = parseDecimal(v, format);
      if ('error' in r) break;
      plain.push(r.value);
    }
    if (plain.length === values.length) return { separator, plain };
  }
  return undefined;
}

function profileOne(name: string, rows: number, filled: string[]): ColumnProfile {
  const distinct = [...new Set(filled)];
  const base = {
    name,
    rows,
    filled: filled.length,
    distinct: distinct.length,
    maxLength: Math.max(0, ...filled.map((v) => v.length)),
  };
  const values = distinct.slice(0, MAX_VALUES);
  if (filled.length === 0) return { ...base, kind: 'empty', values };
  if (distinct.every((v) => INTEGER.test(v))) return { ...base, kind: 'integer', values };
  if (distinct.every((v) => WORDS.has(v.toLowerCase())))
    return { ...base, kind: 'boolean', values };
  if (distinct.every((v) => isCurrencyCode(v.toUpperCase())))
    return { ...base, kind: 'currency', values };
  const date = DATES.find(([re]) => distinct.every((v) => re.test(v)));
  if (date) return { ...base, kind: 'date', dateFormat: date[1], values };
  const decimals = asDecimals(distinct);
  if (decimals) {
    return {
      ...base,
      kind: 'decimal',
      decimalSeparator: decimals.separator,
      maxDecimals: Math.max(0, ...decimals.plain.map((v) => v.split('.')[1]?.length ?? 0)),
      values: decimals.plain.slice(0, MAX_VALUES),
    };
  }
  return { ...base, kind: 'text', values };
}

/** Profiles of the columns of `records` (field name -> raw text), in first-seen order. */
export function profileSample(
  records: readonly Readonly<Record<string, string>>[],
): ColumnProfile[] {
  const columns = new Map<string, string[]>();
  for (const record of records) {
    for (const [name, raw] of Object.entries(record)) {
      if (!columns.has(name)) columns.set(name, []);
      const value = raw.trim();
      if (value) columns.get(name)!.push(value);
    }
  }
  return [...columns].map(([name, filled]) => profileOne(name, records.length, filled));
}
