/**
 * What every page's route shares: its options (a page for browsers, with its params and query
 * declared, kept out of the API's OpenAPI description like the files it links to), the live
 * refresh and list sizes, and the answer: the page in its frame, never cached.
 */
import type { FastifyReply, FastifySchema } from 'fastify';
import type { SafeHtml } from './html.js';
import { page, type PageFrame } from './layout.js';

/** Milliseconds between the live refreshes of a page that changes. */
export const LIVE_MS = 2_000;
/** Rows of a list page (runs, dead letters); "More" shows the next ones. */
export const PAGE_SIZE = 50;

/** A file a page links to (a report, a CSV): for browsers, not part of the API's description. */
export function fileRoute(schema: FastifySchema = {}): { schema: FastifySchema } {
  return { schema: { hide: true, ...schema } };
}

/** An HTML page: without credentials the browser is sent to /login (access.ts). */
export function pageRoute(schema: FastifySchema = {}): {
  config: { page: true };
  schema: FastifySchema;
} {
  return { config: { page: true }, ...fileRoute(schema) };
}

/** Declares string fields (a page's params or query): all optional unless named in `required`. */
export function strings(names: readonly string[], required: readonly string[] = []): object {
  return {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])),
  };
}

export function sendPage(
  reply: FastifyReply,
  frame: Omit<PageFrame, 'principal' | 'csrf'>,
  body: SafeHtml,
): FastifyReply {
  const request = reply.request;
  const full: PageFrame = { ...frame, principal: request.principal! };
  if (request.session) full.csrf = request.session.csrf;
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(page(full, body));
}
