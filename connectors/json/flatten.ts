/**
 * A parsed JSON object -> fields. Nested objects are flattened with dotted keys
 * (`{"address": {"city": "Oslo"}}` -> `address.city`), arrays with their index
 * (`tags.0`, `tags.1`); null gives "", booleans "true"/"false"; numbers arrive as their text.
 * An empty object or array gives no field.
 */

export class FieldNameClash extends Error {}

function put(out: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__') throw new FieldNameClash('a field named "__proto__" is not accepted');
  if (Object.hasOwn(out, key)) throw new FieldNameClash(`two values give the field "${key}"`);
  out[key] = value;
}

function walk(value: unknown, key: string, out: Record<string, string>): void {
  if (value === null) put(out, key, '');
  else if (typeof value === 'string') put(out, key, value);
  else if (typeof value === 'boolean') put(out, key, String(value));
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${key}.${i}`, out));
  else {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      walk(v, key ? `${key}.${k}` : k, out);
    }
  }
}

export function flattenObject(value: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  walk(value, '', out);
  return out;
}
