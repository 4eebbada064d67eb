/**
 * Exact arithmetic on decimal strings ("1299.10", "-5"): compared and divided as scaled BigInts,
 * never through a binary float (money is never a float).
 */

/** A JSON number as its text: what a decimal string must look like to be written as one. */
export const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** Digits after the point. */
const decimalScale = (value: string): number => value.split('.')[1]?.length ?? 0;

/** A decimal string as a BigInt scaled by 10^scale (scale >= its own decimals). */
function scaledDecimal(value: string, scale: number): bigint {
  const negative = value.startsWith('-');
  const [int = '0', frac = ''] = (negative ? value.slice(1) : value).split('.');
  const n = BigInt(int + frac.padEnd(scale, '0'));
  return negative ? -n : n;
}

/** Compares two decimal strings exactly: negative, 0 or positive like a sort comparator. */
export function compareDecimals(a: string, b: string): number {
  const scale = Math.max(decimalScale(a), decimalScale(b));
  const d = scaledDecimal(a, scale) - scaledDecimal(b, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** Whether `value` is a whole multiple of `step` (both decimal strings, step not zero). */
export function isMultipleOf(value: string, step: string): boolean {
  const scale = Math.max(decimalScale(value), decimalScale(step));
  return scaledDecimal(value, scale) % scaledDecimal(step, scale) === 0n;
}
