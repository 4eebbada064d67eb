/**
 * Per-item results in an answer (`{results: [{externalId, status, error?}]}`): a 207's, or a 4xx's
 * that names the bad items of a batch.
 */
import type { StateItem } from '../../pipeline/index.js';
import type { JobRequest } from '../../runs/index.js';
import { EXCERPT_CHARS, type Refusal } from './outcomes.js';

export interface ItemResult {
  externalId?: unknown;
  status?: unknown;
  error?: unknown;
}

/** The results by externalId, or undefined when the body has none. */
export function itemResults(body: unknown): Map<string, ItemResult> | undefined {
  const results = (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) return undefined;
  const map = new Map<string, ItemResult>();
  for (const r of results as ItemResult[]) {
    if (r && typeof r.externalId === 'string') map.set(r.externalId, r);
  }
  return map;
}

export function isOk(status: unknown): boolean {
  return typeof status === 'number' && status >= 200 && status < 300;
}

function itemMessage(result: ItemResult): string {
  const error = result.error as { code?: unknown; message?: unknown } | undefined;
  const parts = [error?.code, error?.message].filter((p) => typeof p === 'string');
  return parts.length > 0 ? parts.join(': ') : `the platform answered ${String(result.status)}`;
}

/** One item the platform refused, as a refusal of its own (its dead letter). */
export function itemRefusal(part: JobRequest, item: StateItem, result: ItemResult): Refusal {
  const refusal: Refusal = {
    request: part,
    items: [item],
    bodyExcerpt: (JSON.stringify(result) ?? '').slice(0, EXCERPT_CHARS),
    errorCode: 'FERRY_HTTP_PERMANENT',
    message: `${part.operationId} refused item ${item.key}: ${itemMessage(result)}`,
  };
  if (typeof result.status === 'number') refusal.status = result.status;
  return refusal;
}
