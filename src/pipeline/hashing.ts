/**
 * The hashes change detection and idempotency keys are made of, taken of canonical JSON.
 * Payloads built by the mapper already have their keys in sorted order, so JSON.stringify of them
 * is canonical; canonicalJson() (src/base) sorts for anything else (path parameters, edited payloads).
 */
import { hash } from 'node:crypto';

/** Content hash of an entity's canonical JSON: 128 bits, base64url (22 characters). */
export function contentHash(json: string): string {
  return hash('sha256', json, 'base64url').slice(0, 22);
}

/** Per-field hashes (PATCH pipelines): 72 bits each, enough to tell one field's values apart. */
export function fieldHashes(payload: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(payload)) {
    out[key] = hash('sha1', JSON.stringify(payload[key]), 'base64url').slice(0, 12);
  }
  return out;
}

export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
