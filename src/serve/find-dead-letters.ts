/**
 * The dead letters a search of the console names: by pipeline, run, operation and item key, of
 * the platforms a filter keeps (a token's scope, `?platform=`). A dead letter of a platform the
 * principal does not see is not found, as an unknown id is not.
 */
import type { DeadLetter, DeadLetterFilter } from '../runs/index.js';
import { passes, platformOfPipeline, sees, type PlatformFilter } from './platform-scope.js';
import type { ServeContext } from './serve-context.js';
import type { Principal } from './tokens.js';

export interface DeadLetterSearch {
  pipeline?: string | undefined;
  run?: string | undefined;
  operation?: string | undefined;
  key?: string | undefined;
  /** One platform's only (`?platform=`); a token's scope applies besides. */
  platform?: string | undefined;
}

function filterOf(search: DeadLetterSearch): DeadLetterFilter {
  return {
    ...(search.pipeline ? { pipeline: search.pipeline } : {}),
    ...(search.run ? { runId: search.run } : {}),
    ...(search.operation ? { operationId: search.operation } : {}),
    ...(search.key ? { key: search.key } : {}),
  };
}

/** Every match, oldest first (the CSV export, a purge of all found). */
export async function findDeadLetters(
  ctx: ServeContext,
  search: DeadLetterSearch,
  platforms: PlatformFilter,
): Promise<DeadLetter[]> {
  const found = await ctx.dlq.list(filterOf(search));
  return platforms ? found.filter((e) => passes(platforms, e.pipeline)) : found;
}

/**
 * One page of the matches, and how many there are. Filtered by platform without a pipeline named,
 * the matches are read whole and paged here (the store's indexes know no platform).
 */
export async function findDeadLetterPage(
  ctx: ServeContext,
  search: DeadLetterSearch,
  platforms: PlatformFilter,
  offset: number,
  limit: number,
): Promise<{ entries: DeadLetter[]; total: number }> {
  if (search.pipeline !== undefined && !passes(platforms, search.pipeline)) {
    return { entries: [], total: 0 };
  }
  if (!platforms || search.pipeline !== undefined) {
    return await ctx.dlq.page(filterOf(search), offset, limit);
  }
  const found = await findDeadLetters(ctx, search, platforms);
  return { entries: found.slice(offset, offset + limit), total: found.length };
}

/** The entry of this id, unless it is unknown or of a platform the principal does not see. */
export async function visibleDeadLetter(
  ctx: ServeContext,
  principal: Principal,
  id: string,
): Promise<DeadLetter | undefined> {
  const entry = await ctx.dlq.get(id);
  return entry && sees(principal, entry.pipeline) ? entry : undefined;
}

/** Entries by their pipeline's platform, in the order first met: one audit entry each. */
export function byPlatform(entries: readonly DeadLetter[]): Map<string, DeadLetter[]> {
  const groups = new Map<string, DeadLetter[]>();
  for (const e of entries) {
    const platform = platformOfPipeline(e.pipeline);
    groups.set(platform, [...(groups.get(platform) ?? []), e]);
  }
  return groups;
}
