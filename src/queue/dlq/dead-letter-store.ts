/**
 * The dead-letter queue in Redis: entries as JSON in one hash, their ids by time in a sorted set.
 * An entry's id is derived from its request's idempotency key and items, so writing the same dead
 * letter twice (a job retried after a crash) keeps one entry.
 */
import type { RedisClient } from '../../redis/connection.js';
import { hashParts } from '../hash.js';
import type { DeliveryKeys } from '../keys.js';
import type { DeadLetter } from './dead-letter.js';

const CHUNK = 500;

export interface DeadLetterFilter {
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
  count(): Promise<number>;
  remove(ids: readonly string[]): Promise<number>;
}

export function createDeadLetterStore(redis: RedisClient, keys: DeliveryKeys): DeadLetterStore {
  return {
    async add(entries) {
      if (entries.length === 0) return;
      const multi = redis.multi();
      for (const entry of entries) {
        multi.hset(keys.dlqEntries, entry.id, JSON.stringify(entry));
        multi.zadd(keys.dlqIndex, 'NX', String(entry.at), entry.id);
      }
      await multi.exec();
    },
    async get(id) {
      const json = await redis.hget(keys.dlqEntries, id);
      return json === null ? undefined : (JSON.parse(json) as DeadLetter);
    },
    async list(filter = {}) {
      const ids = await redis.zrange(keys.dlqIndex, '0', '-1');
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
    },
    count: () => redis.zcard(keys.dlqIndex),
    async remove(ids) {
      if (ids.length === 0) return 0;
      let removed = 0;
      for (let i = 0; i < ids.length; i += CHUNK) {
        const chunk = ids.slice(i, i + CHUNK);
        const [[, n] = [null, 0]] =
          (await redis
            .multi()
            .hdel(keys.dlqEntries, ...chunk)
            .zrem(keys.dlqIndex, ...chunk)
            .exec()) ?? [];
        removed += Number(n);
      }
      return removed;
    },
  };
}
