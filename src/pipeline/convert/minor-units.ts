/**
 * An amount in a currency's minor units (docs/PIPELINES.md, Minor units): "1273.00" NOK -> 127300
 * øre, "1273" JPY -> 1273, "1.275" KWD -> 1275. Exact: the decimal string's digits are shifted by
 * the ISO 4217 exponent as text and BigInt, never through a float. More decimals than the currency
 * has are refused unless the field rounds them (`round`). The result is a JavaScript number, so it
 * is written as a JSON integer with or without a description; one beyond 2^53 - 1 is refused, as a
 * `type: integer` field refuses it: past that a double (what most JSON readers, JavaScript's among
 * them, make of a number) no longer holds every integer.
 */
import { minorUnitExponent } from '../../base/index.js';
import { roundDigits } from './decimal.js';

export type RoundMode = 'half-up' | 'half-even';
export type MinorUnitsResult = { value: number } | { error: string };

/** `decimal`: a plain decimal string as parseDecimal makes it (sign, digits, point). */
export function toMinorUnits(
  decimal: string,
  code: string,
  round: RoundMode | undefined,
): MinorUnitsResult {
  const exponent = minorUnitExponent(code);
  if (exponent === undefined) return { error: `"${code}" is not an ISO 4217 currency code` };
  const negative = decimal.startsWith('-');
  const [whole = '0', given = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  let int = whole;
  let fraction = given;
  if (fraction.length > exponent) {
    if (/[1-9]/.test(fraction.slice(exponent))) {
      if (!round) {
        return {
          error: `"${decimal}" has more decimals than ${code} has (${exponent}); it is not rounded unless the field sets round`,
        };
      }
      [int, fraction] = roundDigits(int, fraction, exponent, round);
    } else fraction = fraction.slice(0, exponent);
  } else fraction = fraction.padEnd(exponent, '0');
  const units = BigInt(int + fraction);
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) {
    return {
      error: `"${decimal}" ${code} is ${units} minor units, more than 2^53 - 1: too large to be sent exactly`,
    };
  }
  const value = Number(units);
  return { value: negative && value !== 0 ? -value : value };
}
