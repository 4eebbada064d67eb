/**
 * A job request -> the interface call, built the way the planner builds it (docs/INTERFACE.md,
 * Bindings): a batch operation's body is the array of its items' payloads (a delete in another
 * style than `body` gives its keys, which the client shapes); an entity write's body is its one item's payload. The
 * payloads travel as the JSON the planner made of them: a delivery that goes well never parses
 * them; a split cuts their texts out as they stand; a dead letter parses them (payloadsOf) and a
 * replay writes them again, numbers a double cannot carry kept as their digits (base/exact-json).
 */
import type { Binding, CallRequest } from '../interface/index.js';
import {
  canonicalJson,
  hashParts,
  jsonArrayItems,
  parseExact,
  stringifyExact,
} from '../base/index.js';
import type { DeliveryItem, StateItem } from '../pipeline/index.js';
import { stateItem, type JobRequest } from '../runs/index.js';

export function buildCall(binding: Binding, request: JobRequest): CallRequest {
  const call: CallRequest = {
    operationId: request.operationId,
    pathParams: request.pathParams,
    idempotencyKey: request.idempotencyKey,
    itemCount: request.items.length,
  };
  // A delete's keys take the binding's shape in the client (interface/delete-shape.ts).
  if (binding.operation.kind === 'delete' && binding.deleteStyle !== 'body') {
    call.body = request.items.map((i) => i.key);
  } else call.bodyJson = request.payloadsJson;
  return call;
}

/** The payload of each item of the request, index for index (numbers keep their digits). */
export function payloadsOf(request: JobRequest): unknown[] {
  const parsed = parseExact(request.payloadsJson);
  return request.payloadsJson.startsWith('[') ? (parsed as unknown[]) : [parsed];
}

/** The request's items with their payloads (for a dead letter, which keeps them whole). */
export function itemsWithPayloads(request: JobRequest): DeliveryItem[] {
  const payloads = payloadsOf(request);
  return request.items.map((item, i) => ({ ...item, payload: payloads[i] }));
}

/** A job request for items that carry their payloads (a replay), shaped for `binding`. */
export function jobRequestOf(
  binding: Binding,
  request: Omit<JobRequest, 'items' | 'payloadsJson'>,
  items: readonly DeliveryItem[],
): JobRequest {
  const payloads = items.map((i) => i.payload);
  return {
    operationId: request.operationId,
    pathParams: request.pathParams,
    idempotencyKey: request.idempotencyKey,
    items: items.map(stateItem),
    payloadsJson: stringifyExact(binding.body === 'object' ? payloads[0] : payloads),
  };
}

/**
 * Some of a request's items, under the same idempotency key (what a dead letter records). Their
 * payloads' JSON is cut out of the request's as it stands (numbers keep their digits).
 */
export function narrowRequest(parent: JobRequest, items: StateItem[]): JobRequest {
  if (items.length === parent.items.length) return parent;
  if (!parent.payloadsJson.startsWith('[')) return { ...parent, items };
  const texts = jsonArrayItems(parent.payloadsJson);
  const byKey = new Map(parent.items.map((item, i) => [item.key, texts[i]]));
  const kept = items.map((item) => byKey.get(item.key) ?? 'null');
  return { ...parent, items, payloadsJson: `[${kept.join(',')}]` };
}

/**
 * A part of a request (a half of a split batch, or what is left of it once per-item results named
 * the bad items) is a request of its own, with its own idempotency key: the same part of the same
 * request always gets the same key, so a retried job is still idempotent.
 */
export function subRequest(parent: JobRequest, items: StateItem[]): JobRequest {
  return {
    ...narrowRequest(parent, items),
    idempotencyKey: hashParts(['part', parent.idempotencyKey, ...items.map((i) => i.key)]),
  };
}

/** The key of a replayed dead letter: new for every replay (the last answer was a failure). */
export function replayKey(previousKey: string, items: readonly DeliveryItem[]): string {
  return hashParts(['replay', previousKey, canonicalJson(items.map((i) => i.payload))]);
}
