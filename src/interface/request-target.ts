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

/** A path template, split once into literal parts and parameter names (paths are built per call). */
interface PathTemplate {
  /** Literal parts around the parameters: one more than `names`. */
  literals: string[];
  names: string[];
}

const TEMPLATES = new Map<string, PathTemplate>();

function templateOf(path: string): PathTemplate {
  let template = TEMPLATES.get(path);
  if (!template) {
    const parts = path.split(/\{(\w+)\}/);
    template = {
      literals: parts.filter((_, i) => i % 2 === 0),
      names: parts.filter((_, i) => i % 2 === 1),
    };
    TEMPLATES.set(path, template);
  }
  return template;
}

function fillPath(binding: Binding, params: Record<string, string>): string {
  const id = binding.operation.id;
  const { literals, names } = templateOf(binding.path);
  for (const k in params) {
    if (names.includes(k)) continue;
    const extra = Object.keys(params).filter((n) => !names.includes(n));
    const takes = names.length ? `takes only ${names.join(', ')}` : 'takes no path parameters';
    throw new UsageError(`${id} ${takes}; got ${extra.join(', ')}.`);
  }
  let path = literals[0] as string;
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i] as string;
    const value = params[name];
    if (value === undefined || value === '') {
      throw new UsageError(`${id} needs the path parameter "${name}" (${binding.path}).`);
    }
    path += encodeURIComponent(value) + (literals[i + 1] as string);
  }
  return path;
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
  const isQueryDelete = binding.operation.kind === 'delete' && binding.deleteStyle === 'query';
  // Most calls have no query string: no URLSearchParams for them.
  let query: URLSearchParams | undefined;
  if (request.query) {
    query = new URLSearchParams();
    for (const [name, value] of Object.entries(request.query)) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(name, v);
    }
  }
  let body: string | undefined;
  const raw = request.bodyJson;
  // A job's delete comes with its keys in `query` already (queue/request-body.ts); a body of items
  // (`ferry call`, a replay) gives its keys here.
  if (isQueryDelete && (raw !== undefined || request.body !== undefined)) {
    query ??= new URLSearchParams();
    const items = raw === undefined ? request.body : (JSON.parse(raw) as unknown);
    for (const key of deleteKeys(binding, items)) query.append(binding.deleteQueryParam, key);
  } else if (raw !== undefined || request.body !== undefined) {
    if (binding.body === 'none') {
      throw new UsageError(`${binding.operation.id} takes no body.`);
    }
    body = raw ?? JSON.stringify(request.body);
    // An object envelope wraps the items' array; jobs keep the bare array (see bindings.ts).
    if (binding.envelope && body.startsWith('['))
      body = `{${JSON.stringify(binding.envelope)}:${body}}`;
  }
  const qs = query && query.size > 0 ? query.toString() : '';
  return { path, pathAndQuery: qs ? `${path}?${qs}` : path, body };
}
