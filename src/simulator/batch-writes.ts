/**
 * PUT, PATCH and DELETE on a collection: a JSON array of items, each answered on its own.
 * 200 when every item applied, 207 `{results: [{externalId, status, error?}]}` when some did not.
 */
import type { Binding } from '../interface/index.js';
import { errorResponse, jsonResponse } from './http-io.js';
import type { Item, StateResource } from './state-store.js';
import { isObject, keyOf, rejected, type ItemProblem } from './validation.js';
import { outcome, type WriteContext, type WriteOutcome } from './write-outcome.js';

interface ItemResult {
  externalId: string | null;
  status: number;
  error?: ItemProblem;
  /** Position in the body, given when the item had no usable externalId. */
  index?: number;
}

type Kind = 'upsert' | 'patch' | 'delete';

function applyItem(
  kind: Kind,
  resource: StateResource,
  key: string,
  item: Item,
  ctx: WriteContext,
): ItemResult {
  const { state } = ctx;
  if (kind === 'delete') {
    state.delete(resource, key);
    // A product's prices go with it.
    if (resource === 'products') state.delete('prices', key);
    return { externalId: key, status: 200 };
  }
  const problem = ctx.rules.item(resource, item);
  if (problem) return { externalId: key, status: 422, error: problem };
  if (kind === 'patch' && !state.get(resource, key)) {
    return {
      externalId: key,
      status: 404,
      error: { code: 'NOT_FOUND', message: `no ${resource} item "${key}" to patch` },
    };
  }
  const existing = kind === 'patch' ? state.get(resource, key) : undefined;
  state.put(resource, key, existing ? { ...existing, ...item } : item);
  // Prices in a product item (its description allows them) are the product's prices, as if patched.
  if (resource === 'products' && item.prices !== undefined) {
    state.put('prices', key, { productId: key, prices: item.prices });
  }
  return { externalId: key, status: 200 };
}

/**
 * A collection body in an object envelope (`{"categories": [...]}`) -> its items' array; a body
 * without the envelope the binding names gives undefined (a 400, as a platform would answer).
 */
export function unwrapEnvelope(binding: Binding, body: unknown): unknown {
  if (!binding.envelope || body === undefined) return body;
  return isObject(body) ? body[binding.envelope] : undefined;
}

/** The items of a DELETE: the JSON body, else the repeated query parameter. */
export function deleteItems(
  body: unknown,
  query: URLSearchParams,
  binding: Binding,
): unknown[] | undefined {
  if (body !== undefined) return Array.isArray(body) ? body : undefined;
  const keys = query.getAll(binding.deleteQueryParam);
  return keys.length > 0 ? keys.map((key) => ({ [binding.keyField]: key })) : undefined;
}

export function executeBatch(
  kind: Kind,
  binding: Binding,
  items: unknown,
  ctx: WriteContext,
): WriteOutcome {
  if (!Array.isArray(items)) {
    const hint =
      kind === 'delete'
        ? `a JSON array of {${binding.keyField}} or the query parameter ${binding.deleteQueryParam}`
        : `a JSON array of items, each with ${binding.keyField}`;
    return outcome(errorResponse(400, 'VALIDATION_FAILED', `the body must be ${hint}`), 0, 1);
  }
  if (items.length > binding.maxItems) {
    return outcome(
      errorResponse(
        413,
        'PAYLOAD_TOO_LARGE',
        `${items.length} items in one request; at most ${binding.maxItems}`,
      ),
      0,
      0,
    );
  }
  const resource = binding.operation.resource as StateResource;
  const results: ItemResult[] = items.map((item: unknown, index): ItemResult => {
    if (!isObject(item)) {
      return {
        externalId: null,
        index,
        status: 422,
        error: { code: 'VALIDATION_FAILED', message: `item ${index} must be a JSON object` },
      };
    }
    const key = keyOf(item, binding.keyField);
    if (key === undefined) {
      return {
        externalId: null,
        index,
        status: 422,
        error: {
          code: 'VALIDATION_FAILED',
          message: `item ${index} has no ${binding.keyField} (a non-empty string is required)`,
        },
      };
    }
    if (ctx.rejectKeys.has(key)) return { externalId: key, status: 422, error: rejected(key) };
    return applyItem(kind, resource, key, item, ctx);
  });
  const applied = results.filter((r) => r.status === 200).length;
  const status = applied === results.length ? 200 : 207;
  return outcome(jsonResponse(status, { results }), applied, results.length - applied);
}
