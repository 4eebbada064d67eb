/**
 * Cursor values: the value of the listing's cursor field (an order's id, a Z-report's id, a day),
 * kept as text. Two values of digits only compare as numbers (any length, no float), others by
 * their characters, which orders ISO dates and times and zero-padded ids as the platform does.
 */
import { atDottedPath } from '../base/index.js';

const DIGITS = /^\d+$/;

export function compareCursor(a: string, b: string): number {
  if (DIGITS.test(a) && DIGITS.test(b)) {
    const x = a.replace(/^0+(?=\d)/, '');
    const y = b.replace(/^0+(?=\d)/, '');
    if (x.length !== y.length) return x.length - y.length;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The later of two cursor values (null: none yet). */
export function laterCursor(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return compareCursor(a, b) >= 0 ? a : b;
}

/** Where a run starts reading: after the cursor, or (`--since X`) at X and after. */
export interface CursorStart {
  value: string;
  inclusive: boolean;
}

export function isPastStart(value: string, start: CursorStart | undefined): boolean {
  if (!start) return true;
  const c = compareCursor(value, start.value);
  return c > 0 || (c === 0 && start.inclusive);
}

/** The value at a dotted path of an item, as text; undefined when absent or not a scalar. */
export function valueAtPath(item: unknown, path: string): string | undefined {
  const value = atDottedPath(item, path);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return undefined;
}
