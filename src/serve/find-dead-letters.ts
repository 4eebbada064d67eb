/** The dead letters a search of the console names: by pipeline, run, operation and item key. */
import type { DeadLetter, DeadLetterFilter } from '../runs/index.js';
import type { ServeContext } from './serve-context.js';

export interface DeadLetterSearch {
  pipeline?: string | undefined;
  run?: string | undefined;
  operation?: string | undefined;
  key?: string | undefined;
}

function filterOf(search: DeadLetterSearch): DeadLetterFilter {
  return {
    ...(search.pipeline ? { pipeline: search.pipeline } : {}),
    ...(search.run ? { runId: search.run } : {}),
    ...(search.operation ? { operationId: search.operation } : {}),
    ...(search.key ? { key: search.key } : {}),
  };
}

/** Every match, oldest first (the CSV export). */
export async function findDeadLetters(
  ctx: ServeContext,
  search: DeadLetterSearch,
): Promise<DeadLetter[]> {
  return await ctx.dlq.list(filterOf(search));
}

/** One page of the matches, and how many there are. */
export async function findDeadLetterPage(
  ctx: ServeContext,
  search: DeadLetterSearch,
  offset: number,
  limit: number,
): Promise<{ entries: DeadLetter[]; total: number }> {
  return await ctx.dlq.page(filterOf(search), offset, limit);
}
