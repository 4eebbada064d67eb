/**
 * An entity's input fingerprint: a hash of its mapping's signature and of the source values it
 * reads (entity-inputs.ts). State keeps it beside the content hash, so tonight's planner can skip
 * mapping and hashing a record whose entities' inputs are what they were when last committed.
 */
import { hash } from 'node:crypto';
import type { EntityInputs } from './entity-inputs.js';

/** 96 bits, base64url (16 characters). */
export function inputFingerprint(
  inputs: EntityInputs,
  fields: Readonly<Record<string, string>>,
): string {
  let text = inputs.signature;
  const columns = inputs.columns;
  if (columns) {
    for (const column of columns) text += `\u0000${fields[column] ?? ''}`;
  } else {
    for (const column in fields) text += `\u0000${column}\u0001${fields[column]}`;
  }
  return hash('sha1', text, 'base64url').slice(0, 16);
}
