/**
 * The dead-letter queue in Redis: entries as JSON in one hash, their ids by time in a sorted set,
 * and the same ids by pipeline, run, operation and item key in sorted sets of their own, so that
 * a search, a count or a page (the console's, with tens of thousands of entries) reads only the
 * entries it shows. Entries written before the by-sets existed are indexed on the first read
 * that needs them.
 *
 * One open entry per item (docs/DELIVERY.md, Dead letters): `dlq:open` maps
 * `<pipeline>|<operation>|<key>` to the id of the item's open entry. A later failure of the same
 * items updates that entry in place: its id stays, `failures` counts up (`dlq:failures`:
 * `<count>|<write id>|<items>`), and the run, error, request and source become the newest. The
 * write id (a hash of the run, idempotency key and item keys) makes the same failure written
 * twice (a job retried after a crash) count once. A new entry gets a random id, so an id never
 * names another item, nor comes back once its entry was replayed or purged.
 */
import { randomBytes } from 'node:crypto';
import { type RedisClient, runScript } from '../../redis/index.js';
import { hashParts, parseExact, stringifyExact } from '../../base/index.js';
import { splitPipelineName } from '../../config/index.js';
import type { DeliveryKeys } from '../keys.js';
import { ADD_DEAD_LETTER } from '../scripts/add-dead-letter.js';
import { CLOSE_DEAD_LETTER } from '../scripts/close-dead-letter.js';
import type { DeadLetter } from './dead-letter.js';

const CHUNK = 500;

export interface DeadLetterFilter {
  pipeline?: string;
  runId?: string;
  operationId?: string;
  /** Entries with an item of this key. */
  key?: string;
  /** Entries of the pipelines on this platform (`catalog@north` is north's; `catalog` default's). */
  platform?: string;
}

/** A fresh entry's id: random, so never one an entry had before. */
export function newDeadLetterId(): string {
  return `d${randomBytes(8).toString('hex').slice(0, 15)}`;
}

/** What makes a failure the same one written again (a job retried after a crash). */
function writeIdOf(entry: DeadLetter): string {
  return hashParts([
    'dead-letter',
    entry.runId,
    entry.idempotencyKey,
    ...entry.items.map((i) => i.key),
  ]).slice(0, 16);
}

const openField = (entry: DeadLetter, key: string): string =>
  [entry.pipeline, entry.operationId, key].join('|');

export function matches(entry: DeadLetter, filter: DeadLetterFilter): boolean {
  return (
    (filter.pipeline === undefined || entry.pipeline === filter.pipeline) &&
    (filter.runId === undefined || entry.runId === filter.runId) &&
    (filter.operationId === undefined || entry.operationId === filter.operationId) &&
    (filter.key === undefined || entry.items.some((i) => i.key === filter.key)) &&
    (filter.platform === undefined ||
      splitPipelineName(entry.pipeline).platform === filter.platform)
  );
}

export interface DeadLetterStore {
  /** Writes each failure (a new entry, or its items' open one updated); returns the ids. */
  add(entries: readonly DeadLetter[]): Promise<string[]>;
  get(id: string): Promise<DeadLetter | undefined>;
  /** Entries oldest first, filtered. */
  list(filter?: DeadLetterFilter): Promise<DeadLetter[]>;
  /** `limit` entries from position `offset` of the filtered list, and the list's length. */
  page(
    filter: DeadLetterFilter,
    offset: number,
    limit: number,
  ): Promise<{ entries: DeadLetter[]; total: number }>;
  count(filter?: DeadLetterFilter): Promise<number>;
  remove(ids: readonly string[]): Promise<number>;
}

type Dimension = 'pipeline' | 'run' | 'operation' | 'key';

/** The by-sets an entry is in. */
function indexesOf(keys: DeliveryKeys, entry: DeadLetter): string[] {
  return [
    keys.dlqBy('pipeline', entry.pipeline),
    keys.dlqBy('run', entry.runId),
    keys.dlqBy('operation', entry.operationId),
    ...new Set(entry.items.map((i) => keys.dlqBy('key', i.key))),
  ];
}

/** The narrowest set holding every entry the filter can match, and what is left to check. */
function narrowest(
  keys: DeliveryKeys,
  filter: DeadLetterFilter,
): { index: string; rest: DeadLetterFilter } {
  const dims: Array<[Dimension, keyof DeadLetterFilter]> = [
    ['key', 'key'],
    ['run', 'runId'],
    ['operation', 'operationId'],
    ['pipeline', 'pipeline'],
  ];
  for (const [dim, field] of dims) {
    const value = filter[field];
    if (value !== undefined) {
      const rest = { ...filter };
      delete rest[field];
      return { index: keys.dlqBy(dim, value), rest };
    }
  }
  // Only a platform (or nothing): every entry, then kept by it.
  return { index: keys.dlqIndex, rest: filter };
}

const unfiltered = (filter: DeadLetterFilter): boolean =>
  Object.values(filter).every((v) => v === undefined);

export function createDeadLetterStore(redis: RedisClient, keys: DeliveryKeys): DeadLetterStore {
  async function read(ids: readonly string[], filter: DeadLetterFilter): Promise<DeadLetter[]> {
    const out: DeadLetter[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK);
      const [values, metas] = await Promise.all([
        redis.hmget(keys.dlqEntries, ...chunk),
        redis.hmget(keys.dlqFailures, ...chunk),
      ]);
      values.forEach((json, j) => {
        if (json === null) return;
        const entry = withMeta(parseExact(json) as DeadLetter, chunk[j]!, metas[j] ?? null);
        if (matches(entry, filter)) out.push(entry);
      });
    }
    return out;
  }

  /** Moves an updated entry between the by-sets of its old and new run (and items). */
  async function reindex(id: string, entry: DeadLetter, before: DeadLetter | undefined) {
    const multi = redis.multi();
    const now = new Set(indexesOf(keys, entry));
    for (const index of before ? indexesOf(keys, before) : []) {
      if (!now.has(index)) multi.zrem(index, id);
    }
    for (const index of now) multi.zadd(index, String(entry.at), id);
    await multi.exec();
  }

  /** Older entries that held some of a new entry's items lose them (a batch later split). */
  async function detachItems(ids: readonly string[], entry: DeadLetter): Promise<void> {
    const taken = new Set(entry.items.map((i) => i.key));
    for (const id of new Set(ids)) {
      const [older] = await read([id], {});
      if (!older) continue;
      const left = older.items.filter((i) => !taken.has(i.key));
      if (left.length === 0) {
        await removeEntries([older]);
        continue;
      }
      const kept = { ...older, items: left };
      const multi = redis.multi().hset(keys.dlqEntries, id, stringifyExact(kept));
      for (const key of taken) multi.zrem(keys.dlqBy('key', key), id);
      await multi.exec();
    }
  }

  async function removeEntries(entries: readonly DeadLetter[]): Promise<number> {
    if (entries.length === 0) return 0;
    const ids = entries.map((e) => e.id);
    const multi = redis
      .multi()
      .hdel(keys.dlqEntries, ...ids)
      .hdel(keys.dlqFailures, ...ids)
      .zrem(keys.dlqIndex, ...ids);
    for (const e of entries) for (const index of indexesOf(keys, e)) multi.zrem(index, e.id);
    const [[, n] = [null, 0]] = (await multi.exec()) ?? [];
    for (const e of entries) {
      await runScript(
        redis,
        CLOSE_DEAD_LETTER,
        { open: keys.dlqOpen },
        { id: e.id, openFields: e.items.map((i) => openField(e, i.key)) },
      );
    }
    return Number(n);
  }

  /** Indexes the entries written before the by-sets existed, once. */
  async function ensureIndexed(): Promise<void> {
    if (await redis.exists(keys.dlqIndexed)) return;
    const ids = await redis.zrange(keys.dlqIndex, '0', '-1');
    for (let i = 0; i < ids.length; i += CHUNK) {
      const entries = await read(ids.slice(i, i + CHUNK), {});
      const multi = redis.multi();
      for (const e of entries) {
        for (const index of indexesOf(keys, e)) multi.zadd(index, 'NX', String(e.at), e.id);
      }
      await multi.exec();
    }
    await redis.set(keys.dlqIndexed, '1');
  }

  async function idsOf(
    filter: DeadLetterFilter,
  ): Promise<{ ids: string[]; rest: DeadLetterFilter }> {
    if (!unfiltered(filter)) await ensureIndexed();
    const { index, rest } = narrowest(keys, filter);
    return { ids: await redis.zrange(index, '0', '-1'), rest };
  }

  return {
    async add(entries) {
      const ids: string[] = [];
      for (const entry of entries) {
        const { id, outcome, before, holders } = await runScript(
          redis,
          ADD_DEAD_LETTER,
          {
            entries: keys.dlqEntries,
            index: keys.dlqIndex,
            open: keys.dlqOpen,
            failures: keys.dlqFailures,
          },
          {
            newId: newDeadLetterId(),
            at: entry.at,
            writeId: writeIdOf(entry),
            entry: stringifyExact(entry),
            openFields: entry.items.map((i) => openField(entry, i.key)),
          },
        );
        ids.push(id);
        if (outcome === 'same') continue;
        const written = { ...entry, id };
        await reindex(id, written, before ? (parseExact(before) as DeadLetter) : undefined);
        if (holders.length > 0) await detachItems(holders, written);
      }
      return ids;
    },
    async get(id) {
      const [entry] = await read([id], {});
      return entry;
    },
    async list(filter = {}) {
      const { ids, rest } = await idsOf(filter);
      return await read(ids, rest);
    },
    async page(filter, offset, limit) {
      if (!unfiltered(filter)) await ensureIndexed();
      const { index, rest } = narrowest(keys, filter);
      if (!unfiltered(rest)) {
        // Two conditions: the narrower set is read whole, then cut.
        const all = await read(await redis.zrange(index, '0', '-1'), rest);
        return { entries: all.slice(offset, offset + limit), total: all.length };
      }
      const [ids, total] = await Promise.all([
        redis.zrange(index, String(offset), String(offset + limit - 1)),
        redis.zcard(index),
      ]);
      return { entries: await read(ids, {}), total };
    },
    async count(filter = {}) {
      if (unfiltered(filter)) return await redis.zcard(keys.dlqIndex);
      await ensureIndexed();
      const { index, rest } = narrowest(keys, filter);
      if (unfiltered(rest)) return await redis.zcard(index);
      return (await read(await redis.zrange(index, '0', '-1'), rest)).length;
    },
    async remove(ids) {
      let removed = 0;
      for (let i = 0; i < ids.length; i += CHUNK) {
        removed += await removeEntries(await read(ids.slice(i, i + CHUNK), {}));
      }
      return removed;
    },
  };
}

/** The id and failure count kept beside the entry's JSON (the JSON may predate an update). */
function withMeta(entry: DeadLetter, id: string, meta: string | null): DeadLetter {
  const failures = Number(meta?.split('|')[0] ?? 1);
  return { ...entry, id, failures: Number.isFinite(failures) && failures > 0 ? failures : 1 };
}
