/**
 * The dead-letter queue in Redis: entries as JSON in one hash, their ids by time in a sorted set,
 * and the same ids by pipeline, run, operation and item key in sorted sets of their own, so that
 * a search, a count or a page (the console's, with tens of thousands of entries) reads only the
 * entries it shows. An entry's id is derived from its request's idempotency key and items, so
 * writing the same dead letter twice (a job retried after a crash) keeps one entry. Entries
 * written before the by-sets existed are indexed on the first read that needs them.
 */
import type { RedisClient } from '../../redis/connection.js';
import { hashParts } from '../hash.js';
import type { DeliveryKeys } from '../keys.js';
import type { DeadLetter } from './dead-letter.js';

const CHUNK = 500;

export interface DeadLetterFilter {
  pipeline?: string;
  runId?: string;
  operationId?: string;
  /** Entries with an item of this key. */
  key?: string;
}

export function deadLetterId(idempotencyKey: string, itemKeys: readonly string[]): string {
  return `d${hashParts(['dead-letter', idempotencyKey, ...itemKeys]).slice(0, 15)}`;
}

export function matches(entry: DeadLetter, filter: DeadLetterFilter): boolean {
  return (
    (filter.pipeline === undefined || entry.pipeline === filter.pipeline) &&
    (filter.runId === undefined || entry.runId === filter.runId) &&
    (filter.operationId === undefined || entry.operationId === filter.operationId) &&
    (filter.key === undefined || entry.items.some((i) => i.key === filter.key))
  );
}

export interface DeadLetterStore {
  add(entries: readonly DeadLetter[]): Promise<void>;
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
  return { index: keys.dlqIndex, rest: {} };
}

const unfiltered = (filter: DeadLetterFilter): boolean =>
  Object.values(filter).every((v) => v === undefined);

export function createDeadLetterStore(redis: RedisClient, keys: DeliveryKeys): DeadLetterStore {
  async function read(ids: readonly string[], filter: DeadLetterFilter): Promise<DeadLetter[]> {
    const out: DeadLetter[] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const values = await redis.hmget(keys.dlqEntries, ...ids.slice(i, i + CHUNK));
      for (const json of values) {
        if (json === null) continue;
        const entry = JSON.parse(json) as DeadLetter;
        if (matches(entry, filter)) out.push(entry);
      }
    }
    return out;
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
      if (entries.length === 0) return;
      const multi = redis.multi();
      for (const entry of entries) {
        multi.hset(keys.dlqEntries, entry.id, JSON.stringify(entry));
        multi.zadd(keys.dlqIndex, 'NX', String(entry.at), entry.id);
        for (const index of indexesOf(keys, entry)) {
          multi.zadd(index, 'NX', String(entry.at), entry.id);
        }
      }
      await multi.exec();
    },
    async get(id) {
      const json = await redis.hget(keys.dlqEntries, id);
      return json === null ? undefined : (JSON.parse(json) as DeadLetter);
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
      if (ids.length === 0) return 0;
      let removed = 0;
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        const entries = await read(chunk, {});
        const multi = redis
          .multi()
          .hdel(keys.dlqEntries, ...chunk)
          .zrem(keys.dlqIndex, ...chunk);
        for (const e of entries) for (const index of indexesOf(keys, e)) multi.zrem(index, e.id);
        const [[, n] = [null, 0]] = (await multi.exec()) ?? [];
        removed += Number(n);
      }
      return removed;
    },
  };
}
