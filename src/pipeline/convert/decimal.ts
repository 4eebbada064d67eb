/**
 * Decimal numbers as ERP exports write them (decimal comma, thousands grouped by space, no-break
 * space or `.`), turned into a plain decimal STRING ("2099.73"). Money is never a float: nothing
 * here goes through Number. One pass over the characters (this runs for every price row).
 */

export interface DecimalFormat {
  /** The decimal separator of the source. */
  separator: ',' | '.';
  /** Characters that may group thousands (each group after the first has exactly 3 digits). */
  groups: readonly string[];
  /** Digits after the point in the result; more non-zero digits than this are an error... */
  scale?: number;
  /** ...unless they are to be rounded off (half-up: away from zero; half-even: to the even digit). */
  round?: 'half-up' | 'half-even';
}

/** Grouping characters accepted by default: space, no-break space, narrow no-break space, and the
 * other of `.`/`,` (the one that is not the decimal separator). */
export function defaultGroups(separator: ',' | '.'): string[] {
  return [' ', '\u00a0', '\u202f', separator === ',' ? '.' : ','];
}

export type DecimalResult = { value: string } | { error: string };

function invalid(raw: string, format: DecimalFormat): DecimalResult {
  const example = format.separator === ',' ? '1 234,56' : '1,234.56';
  return { error: `expected a decimal number like ${example}, got "${raw}"` };
}

const ZERO = 48;
const isDigit = (c: number): boolean => c >= ZERO && c <= ZERO + 9;

/** Rounds the digits int.fraction to `scale` decimals, exactly (BigInt, never a float). */
export function roundDigits(
  int: string,
  fraction: string,
  scale: number,
  mode: 'half-up' | 'half-even',
): [string, string] {
  const divisor = 10n ** BigInt(fraction.length - scale);
  const all = BigInt(int + fraction);
  let kept = all / divisor;
  const twice = (all % divisor) * 2n;
  if (twice > divisor || (twice === divisor && (mode === 'half-up' || kept % 2n === 1n)))
    kept += 1n;
  const digits = kept.toString().padStart(scale + 1, '0');
  return [digits.slice(0, digits.length - scale), digits.slice(digits.length - scale)];
}

/** Parses one decimal number; the result has `scale` decimals when a scale is given. */
export function parseDecimal(raw: string, format: DecimalFormat): DecimalResult {
  let i = 0;
  let negative = false;
  const first = raw.charAt(0);
  if (first === '-' || first === '\u2212' || first === '+') {
    negative = first !== '+';
    i = 1;
  }
  let int = '';
  let groupLength = -1; // digits since the last group separator; -1 before any separator
  let headLength = 0;
  for (; i < raw.length; i++) {
    const ch = raw.charAt(i);
    if (isDigit(raw.charCodeAt(i))) {
      int += ch;
      if (groupLength >= 0) groupLength += 1;
      else headLength += 1;
    } else if (ch === format.separator) break;
    else if (format.groups.includes(ch)) {
      // A group separator needs 1-3 digits before the first, exactly 3 between the others.
      if (groupLength === -1 ? headLength < 1 || headLength > 3 : groupLength !== 3) {
        return invalid(raw, format);
      }
      groupLength = 0;
    } else return invalid(raw, format);
  }
  if (int === '' || (groupLength !== -1 && groupLength !== 3)) return invalid(raw, format);
  let fraction = '';
  if (i < raw.length) {
    fraction = raw.slice(i + 1);
    if (fraction === '') return invalid(raw, format);
    for (let j = 0; j < fraction.length; j++) {
      if (!isDigit(fraction.charCodeAt(j))) return invalid(raw, format);
    }
  }
  const scale = format.scale;
  if (scale !== undefined) {
    if (fraction.length > scale) {
      if (/[1-9]/.test(fraction.slice(scale))) {
        if (!format.round) return { error: `expected at most ${scale} decimals, got "${raw}"` };
        [int, fraction] = roundDigits(int, fraction, scale, format.round);
      } else fraction = fraction.slice(0, scale);
    } else if (fraction.length < scale) fraction = fraction.padEnd(scale, '0');
  }
  let start = 0;
  while (start < int.length - 1 && int.charCodeAt(start) === ZERO) start += 1;
  const integer = start > 0 ? int.slice(start) : int;
  const isZero = integer === '0' && !/[1-9]/.test(fraction);
  const sign = negative && !isZero ? '-' : '';
  return { value: fraction ? `${sign}${integer}.${fraction}` : `${sign}${integer}` };
}
