/**
 * A platform item as Ferry would have sent it: only the fields the pipeline maps (the key field
 * included), without the ones the platform holds as null or not at all, in canonical JSON, and its
 * content hash made as the planner makes the delivered payload's (src/pipeline/hashing.ts). Fields
 * the pipeline does not map (set by the back office or another system) are not compared.
 */
import { canonicalJson } from '../base/index.js';
import { contentHash } from '../pipeline/index.js';
import type { CheckedResource } from './checked-resources.js';

export interface ProjectedItem {
  key: string;
  payload: Record<string, unknown>;
  json: string;
  hash: string;
}

function keyOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The projection of one item of a listing; undefined when it carries no key. */
export function projectItem(resource: CheckedResource, item: unknown): ProjectedItem | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const source = item as Record<string, unknown>;
  const key = keyOf(source[resource.keyField]);
  if (key === undefined) return undefined;
  const payload: Record<string, unknown> = {};
  for (const field of resource.fields) {
    const value = field === resource.keyField ? key : source[field];
    if (value !== undefined && value !== null) payload[field] = value;
  }
  const json = canonicalJson(payload);
  return { key, payload, json, hash: contentHash(json) };
}

/** The fields whose values differ between two payloads (present in only one of them included). */
export function differingFields(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((n) => canonicalJson(a[n]) !== canonicalJson(b[n])).sort();
}

/** The fields whose per-field hashes differ (state keeps them for entities sent by PATCH). */
export function differingHashes(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].filter((n) => a[n] !== b[n]).sort();
}

/** Only these fields of a payload (for the report's values). */
export function pick(
  payload: Readonly<Record<string, unknown>>,
  fields: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (payload[f] !== undefined) out[f] = payload[f];
  return out;
}
