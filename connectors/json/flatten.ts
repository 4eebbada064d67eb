/**
 * A parsed JSON object -> fields. Nested objects are flattened with dotted keys
 * (`{"address": {"city": "Oslo"}}` -> `address.city`), arrays with their index
 * (`tags.0`, `tags.1`); null gives "", booleans "true"/"false"; numbers arrive as their text.
 * An empty object or array gives no field.
 */
import type { KeyTally } from './quote-numbers.js';

/** Nesting deeper than this is refused: no export nests so deep, and walking it could overflow. */
export const MAX_NESTING = 64;

/** A record that cannot become fields: the message says why. */
export class UnflattenableRecord extends Error {}

function put(out: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__')
    throw new UnflattenableRecord('a field named "__proto__" is not accepted');
  if (Object.hasOwn(out, key)) throw new UnflattenableRecord(`two values give the field "${key}"`);
  out[key] = value;
}

function walk(
  value: unknown,
  key: string,
  out: Record<string, string>,
  depth: number,
  tally: KeyTally,
): void {
  if (depth > MAX_NESTING) {
    throw new UnflattenableRecord(
      `the record nests objects or arrays deeper than ${MAX_NESTING} levels (under "${key.split('.')[0]}"): it was not read`,
    );
  }
  if (value === null) put(out, key, '');
  else if (typeof value === 'string') put(out, key, value);
  else if (typeof value === 'boolean') put(out, key, String(value));
  else if (Array.isArray(value))
    value.forEach((v, i) => walk(v, `${key}.${i}`, out, depth + 1, tally));
  else {
    const entries = Object.entries(value as Record<string, unknown>);
    tally.keys += entries.length;
    for (const [k, v] of entries) walk(v, key ? `${key}.${k}` : k, out, depth + 1, tally);
  }
}

/** The fields of `value`; adds the keys of its objects (as parsed, without repeats) to `tally`. */
export function flattenObject(
  value: Record<string, unknown>,
  tally: KeyTally,
): Record<string, string> {
  const out: Record<string, string> = {};
  walk(value, '', out, 0, tally);
  return out;
}
