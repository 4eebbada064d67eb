/**
 * How one entity's state is kept in Redis: a field of the hash
 * `<prefix>:state:{<pipeline>}:<resource>` (the hash tag keeps a pipeline's keys in one cluster
 * slot, which the commit script needs), with the value `<version>|<hash>|<fieldHashes JSON>`.
 * A tombstone (the entity was deleted) has an empty hash: `<version>||`.
 */
import type { EntityState } from '../types.js';

export function stateKey(prefix: string, pipeline: string, resource: string): string {
  return `${prefix}:state:{${pipeline}}:${resource}`;
}

/** Counter of live (not deleted) entities beside each state hash. */
export function liveCountKey(prefix: string, pipeline: string, resource: string): string {
  return `${stateKey(prefix, pipeline, resource)}:live`;
}

export function encodeState(
  version: number,
  hash: string,
  fieldHashes?: Record<string, string>,
): string {
  return `${version}|${hash}|${fieldHashes ? JSON.stringify(fieldHashes) : ''}`;
}

export function decodeState(value: string): EntityState {
  const first = value.indexOf('|');
  const second = value.indexOf('|', first + 1);
  const version = Number(value.slice(0, first));
  const hash = value.slice(first + 1, second);
  const rest = value.slice(second + 1);
  const state: EntityState = { hash, version };
  if (rest) state.fieldHashes = JSON.parse(rest) as Record<string, string>;
  if (!hash) state.deleted = true;
  return state;
}

/*
 * Readers of an encoded value that allocate nothing: the planner compares a million of them.
 */

export function stateVersion(value: string): number {
  return Number(value.slice(0, value.indexOf('|')));
}

/** A tombstone: the hash part is empty. */
export function stateDeleted(value: string): boolean {
  return value.charCodeAt(value.indexOf('|') + 1) === 124; // '|'
}

/** Whether the stored content hash is `hash` (a live entity with this content). */
export function stateHashIs(value: string, hash: string): boolean {
  const start = value.indexOf('|') + 1;
  return value.startsWith(hash, start) && value.charCodeAt(start + hash.length) === 124;
}

export function stateFieldHashes(value: string): Record<string, string> | undefined {
  const first = value.indexOf('|');
  const rest = value.slice(value.indexOf('|', first + 1) + 1);
  return rest ? (JSON.parse(rest) as Record<string, string>) : undefined;
}
