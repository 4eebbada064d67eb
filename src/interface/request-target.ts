/** Where a call goes and what it carries: path parameters, query string and body, per its binding. */
import { UsageError } from '../errors/index.js';
import type { Binding } from './bindings.js';
import type { CallRequest } from './client-types.js';

export interface RequestTarget {
  /** Path with parameters filled in and no query string: what logs and errors show. */
  path: string;
  /** Path and query string, as sent. */
  pathAndQuery: string;
  /** JSON text, or undefined for a request without a body. */
  body: string | undefined;
}

/** The parameter names of each path template, found once (a call's path is built per request). */
const PARAM_NAMES = new Map<string, string[]>();

function paramNames(path: string): string[] {
  let names = PARAM_NAMES.get(path);
  if (!names) {
    names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
    PARAM_NAMES.set(path, names);
  }
  return names;
}

function fillPath(binding: Binding, params: Record<string, string>): string {
  const id = binding.operation.id;
  const names = paramNames(binding.path);
  const extra = Object.keys(params).filter((k) => !names.includes(k));
  if (extra.length > 0) {
    const takes = names.length ? `takes only ${names.join(', ')}` : 'takes no path parameters';
    throw new UsageError(`${id} ${takes}; got ${extra.join(', ')}.`);
  }
  return binding.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') {
      throw new UsageError(`${id} needs the path parameter "${name}" (${binding.path}).`);
    }
    return encodeURIComponent(value);
  });
}

/** DELETE by query: the keys of the body's items become a repeated query parameter. */
function deleteKeys(binding: Binding, body: unknown): string[] {
  const id = binding.operation.id;
  if (!Array.isArray(body)) {
    throw new UsageError(`${id} deletes by query: the body must be an array of items or keys.`);
  }
  return body.map((item: unknown, index) => {
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

export function buildRequestTarget(binding: Binding, request: CallRequest): RequestTarget {
  const path = fillPath(binding, request.pathParams ?? {});
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(name, v);
  }
  let body: string | undefined;
  const isQueryDelete = binding.operation.kind === 'delete' && binding.deleteStyle === 'query';
  if (isQueryDelete) {
    for (const key of deleteKeys(binding, request.body))
      query.append(binding.deleteQueryParam, key);
  } else if (request.body !== undefined) {
    if (binding.body === 'none') {
      throw new UsageError(`${binding.operation.id} takes no body.`);
    }
    body = JSON.stringify(request.body);
  }
  const qs = query.size > 0 ? query.toString() : '';
  return { path, pathAndQuery: qs ? `${path}?${qs}` : path, body };
}
