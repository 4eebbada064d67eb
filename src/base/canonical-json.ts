/** JSON with object keys sorted: the same value always gives the same text (hashes, keys). */
import { ExactNumber } from './exact-json.js';

export function canonicalJson(value: unknown): string {
  if (value instanceof ExactNumber) return value.digits;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    if (obj[key] === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(obj[key])}`);
  }
  return `{${parts.join(',')}}`;
}
