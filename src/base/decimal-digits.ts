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

/** Whether a decimal string is zero (any sign, any number of zeros). */
function isZero(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 48 && c <= 57) return false;
  }
  return true;
}

/** Compares the magnitudes of two unsigned decimal strings, digit by digit. */
function compareMagnitudes(a: string, b: string): number {
  const ad = a.indexOf('.');
  const bd = b.indexOf('.');
  let ai = ad < 0 ? a : a.slice(0, ad);
  let bi = bd < 0 ? b : b.slice(0, bd);
  ai = ai.replace(/^0+(?=\d)/, '');
  bi = bi.replace(/^0+(?=\d)/, '');
  if (ai.length !== bi.length) return ai.length < bi.length ? -1 : 1;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const af = ad < 0 ? '' : a.slice(ad + 1);
  const bf = bd < 0 ? '' : b.slice(bd + 1);
  const n = Math.max(af.length, bf.length);
  const pa = af.padEnd(n, '0');
  const pb = bf.padEnd(n, '0');
  return pa === pb ? 0 : pa < pb ? -1 : 1;
}

/**
 * Compares two decimal strings exactly: negative, 0 or positive like a sort comparator. On the
 * digits as text (no BigInt): the planner compares an amount with the schema's bounds per payload.
 */
export function compareDecimals(a: string, b: string): number {
  const sa = isZero(a) ? 0 : a.startsWith('-') ? -1 : 1;
  const sb = isZero(b) ? 0 : b.startsWith('-') ? -1 : 1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const m = compareMagnitudes(sa < 0 ? a.slice(1) : a, sb < 0 ? b.slice(1) : b);
  return sa < 0 ? -m : m;
}

/** `step` as a power of ten at most 1 (0.01 -> 2 decimals), or undefined. */
const decimalsOfStep = (step: string): number | undefined =>
  /^(0\.0*)?1$/.test(step) ? decimalScale(step) : undefined;

/** Whether `value` is a whole multiple of `step` (both decimal strings, step not zero). */
export function isMultipleOf(value: string, step: string): boolean {
  const decimals = decimalsOfStep(step);
  if (decimals !== undefined) {
    // A power of ten: the digits after the first `decimals` ones must all be zeros.
    const dot = value.indexOf('.');
    if (dot < 0) return true;
    for (let i = dot + 1 + decimals; i < value.length; i++) if (value[i] !== '0') return false;
    return true;
  }
  const scale = Math.max(decimalScale(value), decimalScale(step));
  return scaledDecimal(value, scale) % scaledDecimal(step, scale) === 0n;
}
