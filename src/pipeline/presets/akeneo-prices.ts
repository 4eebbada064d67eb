/**
 * The prices of one Akeneo product row: one per `price-<CUR>` column with a value (Akeneo writes
 * a price attribute as one column per currency: price-EUR, price-USD, ...). Which currencies an
 * export has depends on the catalog, so the columns are found in the row, not listed in config.
 */
import { parseAmount, type Price } from './price-list.js';

/** The price attribute's columns: `price-EUR`. A scopable price (`price-ecommerce-EUR`) is not read. */
const PRICE_COLUMN = /^price-([A-Z]{3})$/;

export type PricesResult = { value: Price[] } | { error: string; field: string } | undefined;

/** The row's prices in header order; undefined when no price column has a value. */
export function akeneoPrices(fields: Readonly<Record<string, string>>): PricesResult {
  const prices: Price[] = [];
  for (const [column, raw] of Object.entries(fields)) {
    const currency = PRICE_COLUMN.exec(column)?.[1];
    const text = raw.trim();
    if (currency === undefined || text === '') continue;
    const amount = parseAmount(text);
    if ('error' in amount) return { error: amount.error, field: column };
    prices.push({ amount: amount.value, currency });
  }
  return prices.length > 0 ? { value: prices } : undefined;
}
