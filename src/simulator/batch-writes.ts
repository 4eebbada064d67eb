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

/**
 * The items of a DELETE, as key objects, in the shape its binding states (and only that one): the
 * body's key objects (`body`) or bare keys (`keys`), the repeated (`query`) or comma-separated
 * (`csv`) query parameter, or the key in the path (`path`); `lenient` (Ferry's assumed interface)
 * takes the repeated query parameter for `body` too. Undefined when the request carries its keys in
 * no shape the binding takes (a 400).
 */
export function deleteItems(
  body: unknown,
  query: URLSearchParams,
  binding: Binding,
  pathParams: Readonly<Record<string, string>> = {},
  lenient = false,
): unknown[] | undefined {
  const asItems = (keys: string[]) => keys.map((key) => ({ [binding.keyField]: key }));
  switch (binding.deleteStyle) {
    case 'body': {
      // Ferry's assumed interface (no description) also takes the repeated query parameter.
      const keys = lenient && body === undefined ? query.getAll(binding.deleteQueryParam) : [];
      if (keys.length > 0) return asItems(keys);
      return Array.isArray(body) ? body : undefined;
    }
    case 'keys':
      // A bare key that is not a string stays as it is: an item refused on its own.
      return Array.isArray(body)
        ? body.map((k: unknown) => (typeof k === 'string' ? { [binding.keyField]: k } : k))
        : undefined;
    case 'query': {
      const keys = query.getAll(binding.deleteQueryParam);
      return body === undefined && keys.length > 0 ? asItems(keys) : undefined;
    }
    case 'csv': {
      const values = query.getAll(binding.deleteQueryParam);
      if (body !== undefined || values.length !== 1) return undefined;
      return asItems(values[0]!.split(',').filter((k) => k !== ''));
    }
    case 'path': {
      const key = Object.values(pathParams)[0];
      return body === undefined && key !== undefined ? asItems([key]) : undefined;
    }
  }
}

/** The shape a DELETE's keys must come in, in words (the 400 of a request in another one). */
export function deleteHint(binding: Binding): string {
  const param = binding.deleteQueryParam;
  const key = binding.keyField;
  switch (binding.deleteStyle) {
    case 'body':
      return `a JSON array of {${key}}${binding.envelope ? ` in {"${binding.envelope}": [...]}` : ''}`;
    case 'keys':
      return `a JSON array of bare keys${binding.envelope ? ` in {"${binding.envelope}": [...]}` : ''}`;
    case 'query':
      return `no body and the repeated query parameter ${param}`;
    case 'csv':
      return `no body and one comma-separated query parameter ${param}`;
    case 'path':
      return `no body and the key in the path ${binding.path}`;
  }
}

export function executeBatch(
  kind: Kind,
  binding: Binding,
  items: unknown,
  ctx: WriteContext,
): WriteOutcome {
  if (!Array.isArray(items)) {
    const message =
      kind === 'delete'
        ? `a delete's keys must come as ${deleteHint(binding)}`
        : `the body must be a JSON array of items, each with ${binding.keyField}`;
    return outcome(errorResponse(400, 'VALIDATION_FAILED', message), 0, 1);
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
