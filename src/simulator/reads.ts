/**
 * GET operations: paged `{items, page, pageSize, total}` from state, the order book, the daily
 * totals or synthetic data; the age group code is one object. read-params.ts parses the query.
 */
import { utcDay } from './daily-totals.js';
import { errorResponse, jsonResponse, type SimResponse } from './http-io.js';
import type { OrderBook } from './order-book.js';
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
  params: URLSearchParams,
  sources: ReadSources,
): SimResponse {
  const resource = match.operation.resource;
  if (resource === 'ageGroupCode') {
    return jsonResponse(200, sources.state.ageGroupCode ?? syntheticAgeGroupCode(sources.seed));
  }
  const parsed = parseReadQuery(resource, params);
  if (!parsed.ok) return errorResponse(400, 'VALIDATION_FAILED', parsed.message);
  const query = parsed.query;
  const { page, pageSize, offset } = query;
  const answer = (items: unknown[], total: number) =>
    jsonResponse(200, { items, page, pageSize, total });
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
