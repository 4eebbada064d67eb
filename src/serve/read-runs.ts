/**
 * The runs a page of the console or `GET /api/runs` lists: newest first, filtered by pipeline,
 * a page at a time (the cursor is the position in the run index where the next page starts). The
 * run hashes of each index page are read in one round trip.
 */
import { lineOf, type RunLine } from '../queue/runs/run-line.js';
import { parseRun, type RunRecord } from '../queue/runs/run-record.js';
import type { ServeContext } from './serve-context.js';

const PAGE = 100;

export interface RunPage {
  runs: RunLine[];
  nextCursor?: string;
}

export async function readRunPage(
  ctx: ServeContext,
  options: { pipeline?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<RunPage> {
  let at = Number(options.cursor ?? 0);
  const runs: RunLine[] = [];
  for (;;) {
    const ids = await ctx.redis.zrevrange(ctx.keys.runIndex, at, at + PAGE - 1);
    const records = await readRuns(ctx, ids);
    for (const run of records) {
      at += 1;
      if (!run || (options.pipeline !== undefined && run.pipeline !== options.pipeline)) continue;
      runs.push(lineOf(run));
      if (runs.length === options.limit) break;
    }
    if (runs.length === options.limit || ids.length < PAGE) break;
  }
  const more = runs.length === options.limit && (await ctx.redis.zcard(ctx.keys.runIndex)) > at;
  return { runs, ...(more ? { nextCursor: String(at) } : {}) };
}

/** Run records by id, in one round trip; undefined for a record past its retention. */
export async function readRuns(
  ctx: ServeContext,
  ids: readonly string[],
): Promise<Array<RunRecord | undefined>> {
  if (ids.length === 0) return [];
  const multi = ctx.redis.multi();
  for (const id of ids) multi.hgetall(ctx.keys.run(id));
  const replies = (await multi.exec()) ?? [];
  return replies.map(([error, fields]) =>
    error ? undefined : parseRun(fields as Record<string, string>),
  );
}
