/**
 * Reads a listing of the platform page by page, as its binding's paging says (pages, cursors, a
 * `Link` header: src/interface/read-pages.ts), the next page requested while the caller works on
 * the one before. A transient failure or a 429 of a page is tried again (delivery.attempts,
 * delivery.backoff; a 429 waits as told) before the command gives up.
 */
import type { FerryConfig } from '../config/index.js';
import { type InterfaceClient, readPages } from '../interface/index.js';

export interface PageReader {
  client: InterfaceClient;
  delivery: FerryConfig['delivery'];
  pageSize: number;
  signal?: AbortSignal;
  /** Counts each request sent (retries included). */
  onRequest?: () => void;
}

/** Every page of the listing, in order; empty pages are not yielded. */
export async function* platformPages(
  reader: PageReader,
  operationId: string,
): AsyncGenerator<unknown[]> {
  for await (const page of readPages({ ...reader, operationId })) {
    if (page.items.length > 0) yield page.items;
  }
}
