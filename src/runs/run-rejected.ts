/**
 * The rows a run rejected, by key, for the entity trace: the hash `keys.runRejected`, field
 * `<key>` -> JSON [{file, line, field?, message}] (a key may be rejected on several lines). Written
 * with the run's record from the same kept errors as its report (the first ERRORS_KEPT), and kept
 * as long as the record (finish-run.ts). A row rejected before its key was read has no entry.
 */
import type { ChainableCommander } from 'ioredis';
import type { RowError } from '../base/index.js';
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';

export type RejectedRow = Omit<RowError, 'key'>;

/** Adds the keyed errors to the caller's transaction; the hash lives `ttlSeconds`. */
export function addRejectedRows(
  multi: ChainableCommander,
  keys: DeliveryKeys,
  runId: string,
  errors: readonly RowError[],
  ttlSeconds: number,
): ChainableCommander {
  const byKey = new Map<string, RejectedRow[]>();
  for (const { key, ...row } of errors) {
    if (key === undefined) continue;
    const rows = byKey.get(key);
    if (rows) rows.push(row);
    else byKey.set(key, [row]);
  }
  if (byKey.size === 0) return multi;
  const fields: string[] = [];
  for (const [key, rows] of byKey) fields.push(key, JSON.stringify(rows));
  const hash = keys.runRejected(runId);
  return multi.hset(hash, ...fields).expire(hash, ttlSeconds);
}

/** The rows each run rejected for `key`, run for run (one round trip). */
export async function rejectedRows(
  redis: RedisClient,
  keys: DeliveryKeys,
  runIds: readonly string[],
  key: string,
): Promise<RejectedRow[][]> {
  if (runIds.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of runIds) pipeline.hget(keys.runRejected(id), key);
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([error, json]) =>
    error || typeof json !== 'string' ? [] : (JSON.parse(json) as RejectedRow[]),
  );
}
