/** Where a call goes and what it carries: path parameters, query string and body, per its binding. */
import { UsageError } from '../errors/index.js';
import type { Binding } from './bindings.js';
import type { CallRequest } from './client-types.js';
import { deleteKeysOf, deleteParts } from './delete-shape.js';

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

export function buildRequestTarget(binding: Binding, request: CallRequest): RequestTarget {
  const raw = request.bodyJson;
  const hasBody = raw !== undefined || request.body !== undefined;
  let pathParams = request.pathParams ?? {};
  let extraQuery: Record<string, string[]> | undefined;
  let items: unknown = raw === undefined ? request.body : undefined;
  let text = raw;
  // A delete's items (key objects from a job, bare keys or objects from `ferry call` or a replay)
  // go in the shape its binding states; `body` style sends what it is given, as before.
  if (binding.operation.kind === 'delete' && binding.deleteStyle !== 'body' && hasBody) {
    const parts = deleteParts(
      binding,
      deleteKeysOf(binding, raw === undefined ? request.body : JSON.parse(raw)),
    );
    if (parts.pathParams) pathParams = { ...pathParams, ...parts.pathParams };
    extraQuery = parts.query;
    items = parts.body;
    text = undefined;
  }
  const path = fillPath(binding, pathParams);
  // Most calls have no query string: no URLSearchParams for them.
  let query: URLSearchParams | undefined;
  for (const q of [request.query, extraQuery]) {
    if (!q) continue;
    query ??= new URLSearchParams();
    for (const [name, value] of Object.entries(q)) {
      for (const v of Array.isArray(value) ? value : [value]) query.append(name, v);
    }
  }
  let body: string | undefined;
  if (text !== undefined || items !== undefined) {
    if (binding.body === 'none') {
      throw new UsageError(`${binding.operation.id} takes no body.`);
    }
    body = text ?? JSON.stringify(items);
    // An object envelope wraps the items' array; jobs keep the bare array (see bindings.ts).
    if (binding.envelope && body.startsWith('['))
      body = `{${JSON.stringify(binding.envelope)}:${body}}`;
  }
  const qs = query && query.size > 0 ? query.toString() : '';
  return { path, pathAndQuery: qs ? `${path}?${qs}` : path, body };
}
