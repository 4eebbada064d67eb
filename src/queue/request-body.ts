/**
 * A job request -> the interface call, built the way the planner builds it (DESIGN.md bindings): a
 * batch operation's body is the array of its items' payloads (or, with deleteStyle `query`, their
 * keys as a repeated query parameter); an entity write's body is its one item's payload.
 */
import type { Binding } from '../interface/bindings.js';
import type { CallRequest } from '../interface/client-types.js';
import { canonicalJson } from '../pipeline/hashing.js';
import { hashParts } from './hash.js';
import type { DeliveryItem } from '../pipeline/types.js';
import type { JobRequest } from './job-data.js';

export function buildCall(binding: Binding, request: JobRequest): CallRequest {
  const call: CallRequest = {
    operationId: request.operationId,
    pathParams: request.pathParams,
    idempotencyKey: request.idempotencyKey,
  };
  if (binding.body === 'object') call.body = request.items[0]?.payload;
  else if (binding.body === 'none') {
    call.query = { [binding.deleteQueryParam]: request.items.map((i) => i.key) };
  } else call.body = request.items.map((i) => i.payload);
  return call;
}

/**
 * A part of a request (a half of a split batch, or what is left of it once per-item results named
 * the bad items) is a request of its own, with its own idempotency key: the same part of the same
 * request always gets the same key, so a retried job is still idempotent.
 */
export function subRequest(parent: JobRequest, items: DeliveryItem[]): JobRequest {
  return {
    ...parent,
    items,
    idempotencyKey: hashParts(['part', parent.idempotencyKey, ...items.map((i) => i.key)]),
  };
}

/** The key of a replayed dead letter: new for every replay (the last answer was a failure). */
export function replayKey(previousKey: string, items: readonly DeliveryItem[]): string {
  return hashParts(['replay', previousKey, canonicalJson(items.map((i) => i.payload))]);
}
