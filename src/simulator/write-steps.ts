/**
 * The steps of an interface request that touch the simulator's shared state, as functions of the
 * context: the rate limit, the idempotency admission, executing a write and counting what it
 * applied. The in-process handler (handle-interface.ts) and the owner of several serving
 * processes (owner-ops.ts) take the very same steps.
 */
import { deleteItems, executeBatch, unwrapEnvelope } from './batch-writes.js';
import type { SimContext } from './context.js';
import { executeEntityWrite } from './entity-writes.js';
import { errorResponse, type SimResponse } from './http-io.js';
import { rateLimitHeaders, retryAfterHeader } from './rate-limiter.js';
import type { RouteMatch } from './router.js';
import type { WriteContext, WriteOutcome } from './write-outcome.js';

/**
 * Takes a request of `items` items from the rate limit: the rate-limit headers every answer
 * carries, and the 429 when the window is spent. Undefined: no limit set.
 */
export function takeRate(
  ctx: SimContext,
  items: number,
  now: number,
): { headers: Record<string, string>; refused: SimResponse | undefined } | undefined {
  const { faults, limiter, stats } = ctx;
  const costed = faults.rateLimitCost === 'items';
  const decision = limiter.take(faults.rateLimit, costed ? Math.max(1, items) : undefined, now);
  if (!decision) return undefined;
  const headers = rateLimitHeaders(faults.rateLimitHeaders, faults.rateLimit, decision, now);
  if (decision.refusedUntil === undefined) return { headers, refused: undefined };
  stats.add('rateLimited');
  const retryAfter = retryAfterHeader(decision.refusedUntil, faults.retryAfter, now);
  const message = `more than ${faults.rateLimit} ${costed ? 'items' : 'requests'} per second`;
  const refused = errorResponse(429, 'RATE_LIMITED', message, { 'retry-after': retryAfter });
  return { headers, refused };
}

/**
 * The idempotency key's answer when it is not a new one: the first answer replayed, 422 for a key
 * used with another request, 409 while the first is in flight. Undefined: admitted as new.
 */
export function admissionAnswer(
  ctx: SimContext,
  key: string,
  fingerprint: string,
): SimResponse | undefined {
  const admission = ctx.idempotency.admit(key, fingerprint);
  if (admission.kind === 'replay') {
    ctx.stats.add('replayed');
    const headers = { ...admission.response.headers, 'idempotent-replayed': 'true' };
    return { ...admission.response, headers };
  }
  if (admission.kind === 'reused') {
    const message = 'this idempotency key was used with another request body; use a new key';
    return errorResponse(422, 'IDEMPOTENCY_KEY_REUSED', message);
  }
  if (admission.kind === 'inFlight') {
    ctx.stats.add('inProgress');
    const message = 'a request with this idempotency key is still being processed; retry later';
    return errorResponse(409, 'REQUEST_IN_PROGRESS', message);
  }
  return undefined;
}

/** Executes a write of `match` on `wctx`'s state; `lenient`: Ferry's assumed interface. */
export function executeWrite(
  match: RouteMatch,
  body: unknown,
  query: URLSearchParams,
  wctx: WriteContext,
  lenient: boolean,
): WriteOutcome {
  const kind = match.operation.kind;
  const items = unwrapEnvelope(match.binding, body);
  if (kind === 'upsert' || kind === 'patch') return executeBatch(kind, match.binding, items, wctx);
  if (kind === 'delete') {
    const keys = deleteItems(items, query, match.binding, match.pathParams, lenient);
    return executeBatch('delete', match.binding, keys, wctx);
  }
  return executeEntityWrite(match, body, wctx);
}

/** Counts a write's applied and refused items, and a write applied again (a duplicate). */
export function countApplied(
  ctx: SimContext,
  key: string | null,
  result: Pick<WriteOutcome, 'appliedItems' | 'rejectedItems'>,
  fingerprint: string,
): void {
  const { stats, idempotency, keylessApplied } = ctx;
  stats.add('rejected', result.rejectedItems);
  if (result.appliedItems === 0) return;
  stats.add('applied');
  stats.add('appliedItems', result.appliedItems);
  const again = key
    ? idempotency.markApplied(key)
    : keylessApplied.has(fingerprint) || !keylessApplied.add(fingerprint);
  if (again) stats.add('duplicates');
}
