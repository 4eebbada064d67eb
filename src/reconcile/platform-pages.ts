/**
 * Reads a listing of the platform page by page (`page`, `pageSize`; the answer `{items, page,
 * pageSize, total}` or a bare array), the next page requested while the caller works on the one
 * before, so at most two pages are held. A transient failure or a 429 of a page is tried again
 * (delivery.attempts, delivery.backoff; a 429 waits as told) before the command gives up.
 */
import type { FerryConfig } from '../config/index.js';
import { type InterfaceClient, callRead } from '../interface/index.js';
import { ListingAnswerError } from './errors.js';

export interface PageReader {
  client: InterfaceClient;
  delivery: FerryConfig['delivery'];
  pageSize: number;
  signal?: AbortSignal;
  /** Counts each request sent (retries included). */
  onRequest?: () => void;
}

interface Page {
  items: unknown[];
  total: number | undefined;
}

function pageOf(body: unknown, operationId: string, page: number): Page {
  if (Array.isArray(body)) return { items: body, total: undefined };
  const doc = body as { items?: unknown; total?: unknown } | null;
  if (doc && typeof doc === 'object' && Array.isArray(doc.items)) {
    return { items: doc.items, total: typeof doc.total === 'number' ? doc.total : undefined };
  }
  throw new ListingAnswerError(operationId, page);
}

async function readPage(reader: PageReader, operationId: string, page: number): Promise<Page> {
  const query = { page: String(page), pageSize: String(reader.pageSize) };
  return pageOf(await callRead({ ...reader, operationId, query }), operationId, page);
}

/** Every page of the listing, in order; empty pages are not yielded. */
export async function* platformPages(
  reader: PageReader,
  operationId: string,
): AsyncGenerator<unknown[]> {
  let next = readPage(reader, operationId, 1);
  for (let page = 1; ; page += 1) {
    const { items, total } = await next;
    const more =
      items.length >= reader.pageSize && (total === undefined || page * reader.pageSize < total);
    if (more) {
      next = readPage(reader, operationId, page + 1);
      next.catch(() => undefined); // awaited on the next turn; never an unhandled rejection
    }
    if (items.length > 0) yield items;
    if (!more) return;
  }
}
