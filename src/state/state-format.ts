/**
 * How one entity's state is kept in Redis: a field of its state hash (keys.ts), with the value
 * `<version>|<hash>|<input fingerprint>|<fieldHashes JSON>`. A tombstone (the entity was deleted)
 * has an empty hash: `<version>||`. Values written before input fingerprints existed,
 * `<version>|<hash>|<fieldHashes JSON>`, are still read (with no fingerprint): the part after the
 * second `|` is then empty or starts with `{`, which a fingerprint (base64url) never does.
 */
import type { EntityState, StateItem } from './types.js';

export interface StateOrigin {
  runId: string;
  /** When it was committed: a replayed item's own time, else the run's first and last commit. */
  firstAt: number;
  lastAt: number;
}

/** The origin of `version` of an entity, from its `k:` and `v:` fields (either may be null). */
export function decodeOrigin(
  version: number,
  itemField: string | null,
  versionField: string | null,
): StateOrigin | undefined {
  if (itemField) {
    const [v, runId, at] = itemField.split('|');
    if (Number(v) === version && runId) return { runId, firstAt: Number(at), lastAt: Number(at) };
  }
  if (!versionField) return undefined;
  const [runId, first, last] = versionField.split('|');
  return runId ? { runId, firstAt: Number(first), lastAt: Number(last) } : undefined;
}

function encodeLive(
  version: number,
  hash: string,
  input: string | undefined,
  fieldHashes: Record<string, string> | undefined,
): string {
  return `${version}|${hash}|${input ?? ''}|${fieldHashes ? JSON.stringify(fieldHashes) : ''}`;
}

export function encodeState(state: EntityState): string {
  if (state.deleted) return `${state.version}||`;
  return encodeLive(state.version, state.hash, state.input, state.fieldHashes);
}

/** The state committing this item writes. */
export function encodeItem(item: StateItem): string {
  if (item.kind === 'delete') return `${item.version}||`;
  return encodeLive(item.version, item.hash, item.input, item.fieldHashes);
}

/**
 * Whether committing this item would write exactly this value (it was committed already). A value
 * in the older format is compared as what it means.
 */
export function holdsItem(value: string, item: StateItem): boolean {
  const encoded = encodeItem(item);
  return encoded === value || encoded === encodeState(decodeState(value));
}

/**
 * What state says of an item about to be sent: `send` (nothing newer committed), `applied` (this
 * very item is committed: its job ran before) or `stale` (a newer change was applied since).
 */
export type ItemVerdict = 'send' | 'applied' | 'stale';

export function itemVerdict(value: string | null, item: StateItem): ItemVerdict {
  if (value === null) return 'send';
  const version = stateVersion(value);
  if (version < item.version) return 'send';
  if (version > item.version) return 'stale';
  return holdsItem(value, item) ? 'applied' : 'stale';
}

/** The input fingerprint ('' when none) and the field hashes' JSON ('' when none) of a live value. */
function tail(value: string): { input: string; fields: string } {
  const first = value.indexOf('|');
  const start = value.indexOf('|', first + 1) + 1;
  const rest = value.slice(start);
  if (rest === '' || rest.charCodeAt(0) === 123 /* { */) return { input: '', fields: rest };
  const sep = rest.indexOf('|');
  return { input: rest.slice(0, sep), fields: rest.slice(sep + 1) };
}

export function decodeState(value: string): EntityState {
  const first = value.indexOf('|');
  const second = value.indexOf('|', first + 1);
  const version = Number(value.slice(0, first));
  const hash = value.slice(first + 1, second);
  if (!hash) return { hash, version, deleted: true };
  const { input, fields } = tail(value);
  const state: EntityState = { hash, version };
  if (input) state.input = input;
  if (fields) state.fieldHashes = JSON.parse(fields) as Record<string, string>;
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

/** Whether a live entity's state was made from this input fingerprint. */
export function stateInputIs(value: string, input: string): boolean {
  const first = value.indexOf('|');
  const start = value.indexOf('|', first + 1) + 1;
  return (
    start > first + 2 && // not a tombstone
    value.startsWith(input, start) &&
    value.charCodeAt(start + input.length) === 124
  );
}

export function stateFieldHashes(value: string): Record<string, string> | undefined {
  const { fields } = tail(value);
  return fields ? (JSON.parse(fields) as Record<string, string>) : undefined;
}
