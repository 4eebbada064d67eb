/**
 * The runs a page of the console or `GET /api/runs` lists: newest first, of one pipeline when
 * asked (and of one status, of the platforms the filter keeps), a page at a time (the cursor is the position in the run index where the next page
 * starts). The run hashes of each index page are read in one round trip.
 */
import { lineOf, type RunLine, indexedRunIds, readRunRecords } from '../runs/index.js';
import { passes, type PlatformFilter } from './platform-scope.js';
import type { ServeContext } from './serve-context.js';

const PAGE = 100;

export interface RunPage {
  runs: RunLine[];
  nextCursor?: string;
}

export async function readRunPage(
  ctx: ServeContext,
  options: {
    pipeline?: string | undefined;
    /** Only runs of this status (the page reads on through the index until it has `limit`). */
    status?: string | undefined;
    /** Only runs of these platforms (the page reads on through the index like for a status). */
    platforms?: PlatformFilter;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<RunPage> {
  if (options.pipeline !== undefined && !passes(options.platforms, options.pipeline)) {
    return { runs: [] };
  }
  let at = Number(options.cursor ?? 0);
  const runs: RunLine[] = [];
  let total = 0;
  for (;;) {
    const page = await indexedRunIds(ctx.redis, ctx.keys, { ...options, start: at, count: PAGE });
    total = page.total;
    for (const run of await readRunRecords(ctx.redis, ctx.keys, page.ids)) {
      at += 1;
      if (!run || (options.status !== undefined && run.status !== options.status)) continue;
      if (!passes(options.platforms, run.pipeline)) continue;
      runs.push(lineOf(run, Date.now()));
      if (runs.length === options.limit) break;
    }
    if (runs.length === options.limit || page.ids.length < PAGE) break;
  }
  const more = runs.length === options.limit && total > at;
  return { runs, ...(more ? { nextCursor: String(at) } : {}) };
}
