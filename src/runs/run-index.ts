/**
 * The run index: run ids by start time, all of them (`<prefix>:{q}:runs`) and per pipeline
 * (`<prefix>:{q}:runs:<pipeline>`), for `ferry runs` and the console. A run's record lives
 * RETENTION_S past its end; its index entries are dropped once older than that, whenever a run is
 * recorded, so the indexes do not grow without end. The per-pipeline indexes came later: an
 * installation from before gets them filled from the whole index on its first read by pipeline.
 */
import type { ChainableCommander } from 'ioredis';
import { splitPipelineName } from '../config/index.js';
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';
import { RETENTION_S } from './finish-run.js';
import { parseRun, standsForPipeline, type RunRecord } from './run-record.js';

/** Adds a run to the indexes (in the caller's transaction), dropping entries past retention. */
export function indexRun(
  multi: ChainableCommander,
  keys: DeliveryKeys,
  run: { id: string; pipeline: string },
  now: number,
): ChainableCommander {
  const expired = `(${now - RETENTION_S * 1000}`;
  return multi
    .zadd(keys.runIndex, now, run.id)
    .zremrangebyscore(keys.runIndex, '-inf', expired)
    .zadd(keys.pipelineRunIndex(run.pipeline), now, run.id)
    .zremrangebyscore(keys.pipelineRunIndex(run.pipeline), '-inf', expired);
}

const PAGE = 100;

const platformOfRun = (run: RunRecord): string => splitPipelineName(run.pipeline).platform;

/** Fills the per-pipeline indexes from the whole one, once per installation. */
async function ensurePipelineIndexes(redis: RedisClient, keys: DeliveryKeys): Promise<void> {
  if (await redis.exists(keys.pipelineRunIndexesFilled)) return;
  for (let start = 0; ; start += PAGE) {
    const page = await redis.zrange(
      keys.runIndex,
      String(start),
      String(start + PAGE - 1),
      'WITHSCORES',
    );
    if (page.length === 0) break;
    const multi = redis.multi();
    for (let i = 0; i < page.length; i += 2) multi.hget(keys.run(page[i]!), 'pipeline');
    const pipelines = ((await multi.exec()) ?? []).map(([, value]) => value as string | null);
    const add = redis.multi();
    pipelines.forEach((pipeline, i) => {
      if (pipeline) add.zadd(keys.pipelineRunIndex(pipeline), page[2 * i + 1]!, page[2 * i]!);
    });
    await add.exec();
  }
  await redis.set(keys.pipelineRunIndexesFilled, '1');
}

/** Ids of runs newest first, from position `start` (of one pipeline's runs when given). */
export async function indexedRunIds(
  redis: RedisClient,
  keys: DeliveryKeys,
  options: { pipeline?: string | undefined; start: number; count: number },
): Promise<{ ids: string[]; total: number }> {
  let index = keys.runIndex;
  if (options.pipeline !== undefined) {
    await ensurePipelineIndexes(redis, keys);
    index = keys.pipelineRunIndex(options.pipeline);
  }
  const [ids, total] = await Promise.all([
    redis.zrevrange(index, options.start, options.start + options.count - 1),
    redis.zcard(index),
  ]);
  return { ids, total };
}

/** Run records by id, in one round trip; undefined for a record past its retention. */
export async function readRunRecords(
  redis: RedisClient,
  keys: DeliveryKeys,
  ids: readonly string[],
): Promise<Array<RunRecord | undefined>> {
  if (ids.length === 0) return [];
  const multi = redis.multi();
  for (const id of ids) multi.hgetall(keys.run(id));
  const replies = (await multi.exec()) ?? [];
  return replies.map(([error, fields]) =>
    error ? undefined : parseRun(fields as Record<string, string>),
  );
}

/**
 * The most recent runs, newest first (of one pipeline when given; of the pipelines on one
 * platform when given), at most `limit`; with `standing`, only the runs that stand for their
 * pipeline (no replays: run-record.ts).
 */
export async function recentRuns(
  redis: RedisClient,
  keys: DeliveryKeys,
  options: { pipeline?: string; platform?: string; limit: number; standing?: boolean },
): Promise<RunRecord[]> {
  const runs: RunRecord[] = [];
  for (let start = 0; runs.length < options.limit; start += PAGE) {
    const { ids } = await indexedRunIds(redis, keys, { ...options, start, count: PAGE });
    if (ids.length === 0) break;
    // A record past retention is gone before its index entry: skip it.
    for (const run of await readRunRecords(redis, keys, ids)) {
      if (!run || (options.standing && !standsForPipeline(run))) continue;
      if (options.platform !== undefined && platformOfRun(run) !== options.platform) continue;
      runs.push(run);
      if (runs.length === options.limit) break;
    }
  }
  return runs;
}
