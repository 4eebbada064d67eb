/**
 * Price lists as products.prices.patch carries them ({amount, currency}, amount a decimal string),
 * and the two things the presets do with them: parse an export's amount, keep the lowest amount
 * per currency when several variants of one product are merged.
 */
import { compareDecimals } from '../../base/index.js';
import { parseDecimal } from '../convert/decimal.js';

export interface Price {
  amount: string;
  currency: string;
}

function isPrice(value: unknown): value is Price {
  const p = value as Partial<Price> | null;
  return typeof p?.amount === 'string' && typeof p.currency === 'string';
}

function asPrices(value: unknown): Price[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(isPrice);
}

/**
 * Merges the prices of two rows of one product: per currency the lowest amount, currencies in
 * the order they first came. The product's price is what its cheapest variant costs ("from").
 */
export function lowestPerCurrency(current: unknown, next: unknown): Price[] {
  const lowest = new Map<string, Price>();
  for (const price of [...asPrices(current), ...asPrices(next)]) {
    const seen = lowest.get(price.currency);
    if (!seen || compareDecimals(price.amount, seen.amount) < 0) lowest.set(price.currency, price);
  }
  return [...lowest.values()];
}

const AMOUNT = /^\d+([.,]\d+)?$/;

/**
 * An amount as PIM and shop exports write it: digits with a decimal point or comma (whichever the
 * export was set to write), no grouping, never negative. Gives a decimal string with two decimals.
 */
export function parseAmount(text: string): { value: string } | { error: string } {
  if (!AMOUNT.test(text)) {
    return { error: `expected an amount such as 19.90 (or 19,90), not negative, got "${text}"` };
  }
  const result = parseDecimal(text.replace(',', '.'), { separator: '.', groups: [], scale: 2 });
  if ('error' in result) return { error: `expected at most 2 decimals, got "${text}"` };
  return result;
}
