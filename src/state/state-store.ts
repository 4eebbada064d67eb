/**
 * The state store: per pipeline and resource, key -> {content hash, version, field hashes}, in
 * Redis under `<prefix>:state:`. Planning only reads it; it is written by the commit script
 * (scripts/commit-state.ts): commit() here (reconciliation), and delivery's commit of the items
 * the platform confirmed with their payloads (before-images/payload-history.ts). Reads go in large
 * HMGET batches so that a million-row plan makes a few hundred round trips, not a million.
 */
import { type RedisClient, runScript } from '../redis/index.js';
import { liveCountKey, originKey, stateKey } from './keys.js';
import { COMMIT_STATE } from './scripts/commit-state.js';
import {
  decodeOrigin,
  decodeState,
  encodeItem,
  itemVerdict,
  type ItemVerdict,
  stateDeleted,
  stateVersion,
  type StateOrigin,
} from './state-format.js';
import type { EntityState, StateItem } from './types.js';

const READ_CHUNK = 5_000;
const COMMIT_CHUNK = 500;
const SCAN_COUNT = 5_000;

export interface CommitResult<T extends StateItem = StateItem> {
  /** Items whose state now says what they carried (including ones already committed before). */
  committed: T[];
  /** Items older than what state holds: not applied. */
  stale: T[];
}

/** Live entities found by scanLive: keys and their committed versions, index for index. */
export interface LiveBatch {
  keys: string[];
  versions: number[];
}

export interface StateStore {
  /** The state of these keys (tombstones included, marked `deleted`); absent keys are left out. */
  read(
    pipeline: string,
    resource: string,
    keys: readonly string[],
  ): Promise<Map<string, EntityState>>;
  /** The encoded state of each key, index for index (null: none); see state/state-format.ts. */
  readEncoded(
    pipeline: string,
    resource: string,
    keys: readonly string[],
  ): Promise<(string | null)[]>;
  /** Live (not deleted) entities of a resource. */
  count(pipeline: string, resource: string): Promise<number>;
  /** Every live entity, in batches (for deletes by absence). */
  scanLive(pipeline: string, resource: string): AsyncIterable<LiveBatch>;
  /**
   * Advances state for confirmed items, atomically per item, unless an item is stale; with
   * `runId`, records that this run committed them (their origin).
   */
  commit<T extends StateItem>(
    pipeline: string,
    items: readonly T[],
    runId?: string,
  ): Promise<CommitResult<T>>;
  /** Which run committed `version` of an entity, and when; none when it was not recorded. */
  origin(
    pipeline: string,
    resource: string,
    key: string,
    version: number,
  ): Promise<StateOrigin | undefined>;
  /** What state says of each item about to be sent, index for index. */
  verdicts(pipeline: string, items: readonly StateItem[]): Promise<ItemVerdict[]>;
}

/** Entries grouped by their item's resource, in the order met. */
export function byResource<T>(
  entries: readonly T[],
  resourceOf: (e: T) => string,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const entry of entries) {
    const resource = resourceOf(entry);
    const list = groups.get(resource);
    if (list) list.push(entry);
    else groups.set(resource, [entry]);
  }
  return groups;
}

export function createStateStore(redis: RedisClient, prefix: string): StateStore {
  const store: StateStore = {
    async readEncoded(pipeline, resource, keys) {
      const key = stateKey(prefix, pipeline, resource);
      const chunks: Promise<(string | null)[]>[] = [];
      for (let i = 0; i < keys.length; i += READ_CHUNK) {
        chunks.push(redis.hmget(key, ...keys.slice(i, i + READ_CHUNK)));
      }
      const replies = await Promise.all(chunks);
      return replies.length === 1 ? (replies[0] as (string | null)[]) : replies.flat();
    },

    async read(pipeline, resource, keys) {
      const values = await store.readEncoded(pipeline, resource, keys);
      const result = new Map<string, EntityState>();
      values.forEach((value, i) => {
        if (value !== null) result.set(keys[i] as string, decodeState(value));
      });
      return result;
    },

    async count(pipeline, resource) {
      const n = await redis.get(liveCountKey(prefix, pipeline, resource));
      return n === null ? 0 : Number(n);
    },

    async *scanLive(pipeline, resource) {
      const key = stateKey(prefix, pipeline, resource);
      let cursor = '0';
      do {
        const [next, flat] = await redis.hscan(key, cursor, 'COUNT', SCAN_COUNT);
        cursor = next;
        const batch: LiveBatch = { keys: [], versions: [] };
        for (let i = 0; i < flat.length; i += 2) {
          const value = flat[i + 1] as string;
          if (stateDeleted(value)) continue;
          batch.keys.push(flat[i] as string);
          batch.versions.push(stateVersion(value));
        }
        if (batch.keys.length > 0) yield batch;
      } while (cursor !== '0');
    },

    async commit<T extends StateItem>(pipeline: string, items: readonly T[], runId = '') {
      const committed: T[] = [];
      const stale: T[] = [];
      for (const [resource, list] of byResource(items, (i) => i.resource)) {
        const keys = {
          state: stateKey(prefix, pipeline, resource),
          liveCount: liveCountKey(prefix, pipeline, resource),
          origin: originKey(prefix, pipeline, resource),
        };
        for (let i = 0; i < list.length; i += COMMIT_CHUNK) {
          const chunk = list.slice(i, i + COMMIT_CHUNK);
          const items = chunk.flatMap((item) => [item.key, encodeItem(item)]);
          const results = await runScript(redis, COMMIT_STATE, keys, { runId, items });
          chunk.forEach((item, j) => (results[j] ? committed : stale).push(item));
        }
      }
      return { committed, stale };
    },

    async origin(pipeline, resource, key, version) {
      const [item, run] = await redis.hmget(
        originKey(prefix, pipeline, resource),
        `k:${key}`,
        `v:${version}`,
      );
      return decodeOrigin(version, item ?? null, run ?? null);
    },

    async verdicts(pipeline, items) {
      const out: ItemVerdict[] = new Array<ItemVerdict>(items.length);
      const indexes = new Map<string, number[]>();
      items.forEach((item, i) => {
        const list = indexes.get(item.resource);
        if (list) list.push(i);
        else indexes.set(item.resource, [i]);
      });
      await Promise.all(
        [...indexes].map(async ([resource, list]) => {
          const keys = list.map((i) => (items[i] as StateItem).key);
          const values = await store.readEncoded(pipeline, resource, keys);
          list.forEach((i, j) => (out[i] = itemVerdict(values[j] ?? null, items[i] as StateItem)));
        }),
      );
      return out;
    },
  };
  return store;
}
