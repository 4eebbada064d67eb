/**
 * How a DELETE carries its keys, per its binding's `deleteStyle` (docs/INTERFACE.md, Bindings):
 * `body` an array of key objects, `keys` an array of bare keys (either in the envelope, which
 * request-target.ts adds), `query` a repeated query parameter, `csv` one comma-separated query
 * parameter, `path` one request per key in the path. Jobs and replays keep their items as key
 * objects; the shape is made here, at the last moment, so one function decides it for the client,
 * the plan-time check and the simulator.
 */
import { UsageError } from '../errors/index.js';
import type { Binding } from './bindings.js';

/** What a delete of some keys puts where. */
export interface DeleteParts {
  /** The body's items' array (before the envelope), or undefined for no body. */
  body?: unknown[];
  query?: Record<string, string[]>;
  pathParams?: Record<string, string>;
}

/** The keys of a delete's items, key objects (`{externalId}`) or bare keys. */
export function deleteKeysOf(binding: Binding, items: unknown): string[] {
  const id = binding.operation.id;
  if (!Array.isArray(items)) {
    throw new UsageError(`${id}: the body of a delete must be an array of items or keys.`);
  }
  return items.map((item: unknown, index) => {
    const key =
      item && typeof item === 'object' ? (item as Record<string, unknown>)[binding.keyField] : item;
    if (typeof key !== 'string' || key === '') {
      throw new UsageError(
        `${id}: item ${index} of the body has no string "${binding.keyField}" to delete by.`,
      );
    }
    return key;
  });
}

/** The one path parameter a delete by path fills with its key. */
export function deletePathParam(binding: Binding): string | undefined {
  return /\{(\w+)\}/.exec(binding.path)?.[1];
}

export function deleteParts(binding: Binding, keys: readonly string[]): DeleteParts {
  switch (binding.deleteStyle) {
    case 'body':
      return { body: keys.map((key) => ({ [binding.keyField]: key })) };
    case 'keys':
      return { body: [...keys] };
    case 'query':
      return { query: { [binding.deleteQueryParam]: [...keys] } };
    case 'csv':
      return { query: { [binding.deleteQueryParam]: [keys.join(',')] } };
    case 'path': {
      const name = deletePathParam(binding);
      if (!name || keys.length !== 1) {
        const why = name
          ? `one key per request, got ${keys.length}`
          : `no {parameter} in ${binding.path}`;
        throw new UsageError(`${binding.operation.id} deletes by path: ${why}.`);
      }
      return { pathParams: { [name]: keys[0] as string } };
    }
  }
}

/** The shape in words, for messages ("an array of bare keys in {"externalIds": [...]}"). */
export function deleteShapeText(binding: Binding): string {
  const param = binding.deleteQueryParam;
  const inEnvelope = (what: string) =>
    binding.envelope ? `${what} in {"${binding.envelope}": [...]}` : what;
  switch (binding.deleteStyle) {
    case 'body':
      return inEnvelope(`an array of {"${binding.keyField}": KEY} objects`);
    case 'keys':
      return inEnvelope('an array of bare keys');
    case 'query':
      return `a repeated query parameter ?${param}=KEY&${param}=KEY`;
    case 'csv':
      return `a comma-separated query parameter ?${param}=KEY,KEY`;
    case 'path':
      return `one request per key in the path ${binding.path}`;
  }
}
