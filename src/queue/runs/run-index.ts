/**
 * The run index: run ids by start time (`<prefix>:{q}:runs`), for `ferry runs`. A run's record
 * lives RETENTION_S past its end; its index entry is dropped once older than that, whenever a
 * run is recorded, so the index does not grow without end.
 */
import type { ChainableCommander } from 'ioredis';
import type { RedisClient } from '../../redis/connection.js';
import type { DeliveryKeys } from '../keys.js';
import { RETENTION_S } from './finish-run.js';
import { parseRun, type RunRecord } from './run-record.js';

/** Adds a run to the index (in the caller's transaction), dropping entries past retention. */
export function indexRun(
  multi: ChainableCommander,
  keys: DeliveryKeys,
  runId: string,
  now: number,
): ChainableCommander {
  return multi
    .zadd(keys.runIndex, now, runId)
    .zremrangebyscore(keys.runIndex, '-inf', `(${now - RETENTION_S * 1000}`);
}

const PAGE = 100;

/** The most recent runs, newest first (of one pipeline when given), at most `limit`. */
export async function recentRuns(
  redis: RedisClient,
  keys: DeliveryKeys,
  options: { pipeline?: string; limit: number },
): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for (let start = 0; runs.length < options.limit; start += PAGE) {
    const ids = await redis.zrevrange(keys.runIndex, start, start + PAGE - 1);
    if (ids.length === 0) break;
    for (const id of ids) {
      const run = parseRun(await redis.hgetall(keys.run(id)));
      // A record past retention is gone before its index entry: skip it.
      if (!run || (options.pipeline !== undefined && run.pipeline !== options.pipeline)) continue;
      runs.push(run);
      if (runs.length === options.limit) break;
    }
  }
  return runs;
}
