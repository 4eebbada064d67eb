/**
 * Every page of a read, followed as its binding's paging says (docs/INTERFACE.md, Reads): a
 * `Link: <...>; rel="next"` header, a cursor or next URL in the answer, or page numbers (until a
 * short page, or `total`). Reconciliation, state rebuilds, exports and `ferry call --all` read
 * through it. The next page is asked for while the caller works on the one before, so at most two
 * are held. A cursor (or next URL) given twice, or more pages than `maxPages`, stops the read with
 * ReadPagesError rather than reading forever.
 */
import type { FerryConfig, PagingConfig } from '../config/index.js';
import { atDottedPath } from '../base/index.js';
import { FerryError } from '../errors/index.js';
import { callRead } from './call-read.js';
import type { CallResponse, InterfaceClient } from './client-types.js';

/** Pages one read may take before it is stopped as a loop. */
export const MAX_PAGES = 100_000;

export class ReadPagesError extends FerryError<'FERRY_READ_PAGES'> {
  readonly code = 'FERRY_READ_PAGES';
  constructor(operationId: string, page: number, problem: string) {
    super(`${operationId}, page ${page}: ${problem}`, { operationId, page });
  }
}

export interface PagedRead {
  client: InterfaceClient;
  delivery: FerryConfig['delivery'];
  operationId: string;
  /** Items per page asked for (capped by the described maximum). */
  pageSize: number;
  /** The read's own query (filters), sent with every page. */
  query?: Readonly<Record<string, string>>;
  signal?: AbortSignal | undefined;
  /** Counts each request sent (retries included). */
  onRequest?: (() => void) | undefined;
  maxPages?: number;
}

export interface ReadPage {
  /** From 1. */
  number: number;
  /** The answer's status. */
  status: number;
  items: unknown[];
}

type Query = Record<string, string>;

function itemsOf(body: unknown, paging: PagingConfig): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  const items = atDottedPath(body, paging.items ?? 'items');
  return Array.isArray(items) ? items : undefined;
}

/** The URL of a `Link` header's rel="next" (RFC 8288). */
function linkNext(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(/,(?=\s*<)/)) {
    const m = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (m && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(m[2]!)) return m[1];
  }
  return undefined;
}

/** A next URL's query: what the platform asks to be sent for the next page. */
function queryOfUrl(url: string): Query {
  return Object.fromEntries(new URL(url, 'http://next.invalid').searchParams);
}

const looksLikeUrl = (text: string): boolean =>
  /^(https?:\/\/|\/)/i.test(text) || text.includes('?');

interface Reading {
  read: PagedRead;
  paging: PagingConfig;
  size: number;
  first: Query;
}

/** The query of the page after `number`, or undefined when it was the last. */
function nextQuery(
  r: Reading,
  answer: CallResponse,
  items: unknown[],
  number: number,
): Query | undefined {
  const { paging, first, size } = r;
  if (paging.link) {
    const url = linkNext(answer.headers.link);
    if (url) return queryOfUrl(url);
  }
  if (paging.next) {
    const next = atDottedPath(answer.body, paging.next);
    if (typeof next === 'string' && next !== '') {
      if (looksLikeUrl(next)) return queryOfUrl(next);
      return { ...first, [paging.cursor ?? 'cursor']: next };
    }
    if (typeof next === 'number') return { ...first, [paging.cursor ?? 'cursor']: String(next) };
  }
  if (paging.link || paging.next || !paging.page) return undefined;
  const total = atDottedPath(answer.body, 'total');
  const more =
    items.length > 0 &&
    (!paging.size || items.length >= size) &&
    (typeof total !== 'number' || number * size < total);
  return more ? { ...first, [paging.page]: String(number + 1) } : undefined;
}

async function fetchPage(r: Reading, query: Query, number: number) {
  const answer = await callRead({ ...r.read, query });
  const items = itemsOf(answer.body, r.paging);
  if (!items) {
    const where = r.paging.items ? `{${r.paging.items}: [...]}` : 'an array of items';
    throw new ReadPagesError(r.read.operationId, number, `the answer is not ${where}`);
  }
  return { status: answer.status, items, next: nextQuery(r, answer, items, number) };
}

/** The pages of a read, in order; empty pages after the first are not yielded. */
export async function* readPages(read: PagedRead): AsyncGenerator<ReadPage> {
  const paging = read.client.binding(read.operationId).paging;
  const size = Math.min(read.pageSize, paging.maxSize ?? read.pageSize);
  const first: Query = paging.size ? { [paging.size]: String(size) } : {};
  Object.assign(first, read.query);
  const r: Reading = { read, paging, size, first };
  const maxPages = read.maxPages ?? MAX_PAGES;
  const start = paging.page ? { ...first, [paging.page]: '1' } : first;
  const seen = new Set<string>([JSON.stringify(start)]);
  let pending = fetchPage(r, start, 1);
  for (let number = 1; ; number += 1) {
    const { status, items, next } = await pending;
    if (next) {
      const key = JSON.stringify(next);
      if (seen.has(key)) {
        throw new ReadPagesError(
          read.operationId,
          number,
          `the platform asked for the same next page twice (${key}): following it would never end`,
        );
      }
      if (number >= maxPages) {
        throw new ReadPagesError(
          read.operationId,
          number,
          `more than ${maxPages} pages: stopped, as a listing that never ends would not`,
        );
      }
      seen.add(key);
      pending = fetchPage(r, next, number + 1);
      pending.catch(() => undefined); // awaited on the next turn; never an unhandled rejection
    }
    if (items.length > 0 || number === 1) yield { number, status, items };
    if (!next) return;
  }
}
