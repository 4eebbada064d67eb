/** The dead letters a search of the console names: by pipeline, operation and item key. */
import type { DeadLetter } from '../queue/dlq/dead-letter.js';
import type { ServeContext } from './serve-context.js';

export interface DeadLetterSearch {
  pipeline?: string | undefined;
  operation?: string | undefined;
  key?: string | undefined;
}

export async function findDeadLetters(
  ctx: ServeContext,
  search: DeadLetterSearch,
): Promise<DeadLetter[]> {
  const entries = await ctx.dlq.list({
    ...(search.operation ? { operationId: search.operation } : {}),
    ...(search.key ? { key: search.key } : {}),
  });
  return search.pipeline ? entries.filter((e) => e.pipeline === search.pipeline) : entries;
}
