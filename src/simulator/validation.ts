/**
 * The platform rules the simulator enforces on items (docs/SIMULATOR.md): an externalId that is a
 * string, price amounts that are non-negative decimal strings, emails with an @.
 */
import type { Item } from './state-store.js';

export interface ItemProblem {
  code: 'VALIDATION_FAILED' | 'REJECTED' | 'NOT_FOUND';
  message: string;
}

/** Resources whose `email` field must hold an address. */
const EMAIL_RESOURCES = new Set(['stores', 'users']);
const DECIMAL = /^\d+(\.\d+)?$/;

export function isObject(value: unknown): value is Item {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function keyOf(item: Item, keyField: string): string | undefined {
  const key = item[keyField];
  return typeof key === 'string' && key.length > 0 ? key : undefined;
}

function invalid(message: string): ItemProblem {
  return { code: 'VALIDATION_FAILED', message };
}

export function rejected(key: string): ItemProblem {
  return {
    code: 'REJECTED',
    message: `"${key}" is rejected by the platform's rule (reject-keys)`,
  };
}

/** The first problem of one price entry, or undefined. */
export function priceProblem(price: unknown, where: string): ItemProblem | undefined {
  if (!isObject(price)) return invalid(`${where} must be an object {amount, currency}`);
  const { amount, currency } = price;
  if (typeof amount !== 'string') {
    return invalid(
      `${where}.amount must be a decimal string such as "1299.00", got ${typeof amount}`,
    );
  }
  if (amount.trim().startsWith('-')) {
    return invalid(`${where}.amount must not be negative, got "${amount}"`);
  }
  if (!DECIMAL.test(amount)) {
    return invalid(`${where}.amount must be a decimal string such as "1299.00", got "${amount}"`);
  }
  if (currency !== undefined && typeof currency !== 'string') {
    return invalid(`${where}.currency must be a string such as "NOK"`);
  }
  return undefined;
}

export function pricesProblem(prices: unknown, where = 'prices'): ItemProblem | undefined {
  if (!Array.isArray(prices)) return invalid(`${where} must be an array of {amount, currency}`);
  for (let i = 0; i < prices.length; i++) {
    const problem = priceProblem(prices[i], `${where}[${i}]`);
    if (problem) return problem;
  }
  return undefined;
}

/** The first problem of a collection item's fields (its key is checked by the caller). */
export function fieldProblem(resource: string, item: Item): ItemProblem | undefined {
  if (EMAIL_RESOURCES.has(resource) && item.email !== undefined && item.email !== null) {
    if (typeof item.email !== 'string' || !item.email.includes('@')) {
      return invalid(`email must be an address with an @, got ${JSON.stringify(item.email)}`);
    }
  }
  if (item.prices !== undefined) return pricesProblem(item.prices);
  return undefined;
}

/**
 * The item rules a write applies: Ferry's assumed ones above, or none where a description's request
 * schemas have already checked the request (`--openapi`).
 */
export interface ItemRules {
  item(resource: string, item: Item): ItemProblem | undefined;
  prices(prices: unknown): ItemProblem | undefined;
}

export const ASSUMED_RULES: ItemRules = { item: fieldProblem, prices: (p) => pricesProblem(p) };
export const DESCRIBED_RULES: ItemRules = { item: () => undefined, prices: () => undefined };
