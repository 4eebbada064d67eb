/**
 * GET operations: paged `{items, page, pageSize, total}` (or as the description pages them:
 * read-pages.ts) from state, the order book, the daily totals or synthetic data; the age group
 * code is one object. read-params.ts parses the query.
 */
import { utcDay } from './daily-totals.js';
import { errorResponse, jsonResponse, type SimResponse } from './http-io.js';
import type { OrderBook } from './order-book.js';
import { ownQuery, pagedAnswer } from './read-pages.js';
import { parseReadQuery } from './read-params.js';
import type { RouteMatch } from './router.js';
import { isStateResource, type SimState } from './state-store.js';
import { syntheticAgeGroupCode, syntheticMicroshops } from './synthetic.js';

export interface ReadSources {
  state: SimState;
  orders: OrderBook;
  seed: number;
  /** Now, in epoch ms: decides which days are closed. */
  clock: () => number;
}

export function executeRead(
  match: RouteMatch,
  url: URL,
  sources: ReadSources,
  /** The query parameters the description declares (`--openapi`). */
  declared?: ReadonlySet<string>,
): SimResponse {
  const resource = match.operation.resource;
  if (resource === 'ageGroupCode') {
    return jsonResponse(200, sources.state.ageGroupCode ?? syntheticAgeGroupCode(sources.seed));
  }
  const paging = match.binding.paging;
  const own = ownQuery(resource, paging, url.searchParams, declared);
  if ('message' in own) return errorResponse(400, 'VALIDATION_FAILED', own.message);
  const parsed = parseReadQuery(resource, own.params);
  if (!parsed.ok) return errorResponse(400, 'VALIDATION_FAILED', parsed.message);
  const query = parsed.query;
  if (own.offset !== undefined) query.offset = own.offset;
  const { pageSize, offset } = query;
  const answer = (items: unknown[], total: number) =>
    pagedAnswer({ paging, url, query, items, total });
  const slice = (all: unknown[]) => answer(all.slice(offset, offset + pageSize), all.length);

  if (isStateResource(resource)) {
    return answer(sources.state.page(resource, offset, pageSize), sources.state.size(resource));
  }
  switch (resource) {
    case 'orders': {
      const filter = {
        afterSequence: query.sinceSequence,
        createdAfterMs: query.createdAfterMs,
        createdBeforeMs: query.createdBeforeMs,
      };
      const { items, total } = sources.orders.select(filter, offset, pageSize);
      return answer(items, total);
    }
    case 'zReports':
      return slice(sources.orders.daily.zReports(utcDay(sources.clock()), query.from, query.to));
    case 'revenue':
      return slice(sources.orders.daily.revenue(utcDay(sources.clock()), query.from, query.to));
    case 'microshops': {
      const { items, total } = syntheticMicroshops(sources.seed, offset, pageSize);
      return answer(items, total);
    }
    default:
      return errorResponse(500, 'INTERNAL', `the simulator has no data for ${match.operation.id}`);
  }
}
