/** What the sync state keeps of an entity, and what committing one confirmed item needs. */
import type { SourceRef } from '../base/index.js';

/** What state says of one entity: its content hash, per-field hashes when kept, and version. */
export interface EntityState {
  hash: string;
  version: number;
  fieldHashes?: Record<string, string>;
  /** Fingerprint of the source values the entity was mapped from (see pipeline/mapping/input-fingerprint.ts). */
  input?: string;
  /** A tombstone: the entity was deleted at `version` (it is not a live entity). */
  deleted?: boolean;
}

export type ChangeKind = 'upsert' | 'patch' | 'delete';

/** What committing an item needs: a delivery item (pipeline/types.ts) without its payload. */
export interface StateItem {
  resource: string;
  key: string;
  kind: ChangeKind;
  /** Content hash to commit; for a delete, the empty string. */
  hash: string;
  fieldHashes?: Record<string, string>;
  /** Fingerprint of the source values the payload was mapped from; none for edited payloads. */
  input?: string;
  /** Version this change carries; a worker never applies one older than what was applied. */
  version: number;
  /** The committed version when planned (part of the idempotency key). 0: never committed. */
  baseVersion: number;
  source?: SourceRef;
  /**
   * Entries committed along with this one when it is confirmed: a product's prices that rode in its
   * batch item (bindings' pricesInBatch). The request's payload is this item's alone.
   */
  also?: StateItem[];
}
