/** GET operations: paged `{items, page, pageSize, total}` from state or synthetic data. */
import { errorResponse, jsonResponse, type SimResponse } from './http-io.js';
import type { RouteMatch } from './router.js';
import { isStateResource, type SimState } from './state-store.js';
import { SYNTHETIC, syntheticAgeGroupCode, syntheticItems } from './synthetic.js';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

function positiveInt(query: URLSearchParams, name: string, fallback: number, max: number) {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  return value >= 1 && value <= max ? value : undefined;
}

export function executeRead(
  match: RouteMatch,
  query: URLSearchParams,
  state: SimState,
  seed: number,
): SimResponse {
  const resource = match.operation.resource;
  if (resource === 'ageGroupCode') {
    return jsonResponse(200, state.ageGroupCode ?? syntheticAgeGroupCode(seed));
  }
  const page = positiveInt(query, 'page', 1, Number.MAX_SAFE_INTEGER);
  const pageSize = positiveInt(query, 'pageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (page === undefined || pageSize === undefined) {
    return errorResponse(
      400,
      'VALIDATION_FAILED',
      `page must be an integer >= 1 and pageSize an integer from 1 to ${MAX_PAGE_SIZE}`,
    );
  }
  const offset = (page - 1) * pageSize;
  if (isStateResource(resource)) {
    const items = state.page(resource, offset, pageSize);
    return jsonResponse(200, { items, page, pageSize, total: state.size(resource) });
  }
  if (SYNTHETIC[resource]) {
    const { items, total } = syntheticItems(seed, resource, offset, pageSize);
    return jsonResponse(200, { items, page, pageSize, total });
  }
  return errorResponse(500, 'INTERNAL', `the simulator has no data for ${match.operation.id}`);
}
