/**
 * Reads an export's listing page by page (`page`, `pageSize`, the read's fixed query, and with
 * `cursor.param` the cursor: the platform answers only the items after it), the next page
 * requested while the caller writes the one before. Items come in the listing's order, which must be the cursor's (ascending, each value
 * after the one before): a listing sorted otherwise would skip or repeat items between pages as
 * new ones arrive, so it stops the export (ExportListingError) instead. Items up to the start are
 * passed over; reading ends at a short page, past `stop` (re-publishing a pending range), or after
 * `maxItems`. A transient failure or a 429 of a page is tried again (delivery.attempts and
 * backoff; a 429 waits as told) before the export gives up with the interface's error.
 */
import type { FerryConfig } from '../config/index.js';
import { type InterfaceClient, callRead } from '../interface/index.js';
import { compareCursor, isPastStart, valueAtPath, type CursorStart } from './cursor.js';
import { ExportListingError } from './errors.js';

export interface ItemReader {
  client: InterfaceClient;
  delivery: FerryConfig['delivery'];
  operationId: string;
  pageSize: number;
  query: Readonly<Record<string, string>>;
  cursor: { field: string; param?: string | undefined };
  signal?: AbortSignal;
  /** Counts each request sent (retries included). */
  onRequest?: () => void;
}

export interface ReadRange {
  start?: CursorStart | undefined;
  /** The last cursor value to read (a pending range's end). */
  stop?: string | undefined;
  maxItems?: number | undefined;
}

export interface CursorItem {
  item: unknown;
  cursor: string;
}

function itemsOf(body: unknown, operationId: string, page: number): unknown[] {
  if (Array.isArray(body)) return body;
  const items = (body as { items?: unknown } | null)?.items;
  if (Array.isArray(items)) return items;
  throw new ExportListingError(
    operationId,
    `page ${page} is not {items: [...]} or an array of items`,
    { page },
  );
}

async function readPage(reader: ItemReader, page: number, start?: string): Promise<unknown[]> {
  const query: Record<string, string> = {
    ...reader.query,
    page: String(page),
    pageSize: String(reader.pageSize),
  };
  if (reader.cursor.param && start !== undefined) query[reader.cursor.param] = start;
  const body = await callRead({ ...reader, operationId: reader.operationId, query });
  return itemsOf(body, reader.operationId, page);
}

/** The items of the range, in the cursor's order, each with its cursor value. */
export async function* readItems(reader: ItemReader, range: ReadRange): AsyncGenerator<CursorItem> {
  if (range.maxItems === 0) return;
  const { field } = reader.cursor;
  // The parameter asks for the items after a value: an inclusive start (--since) reads from the
  // first page and passes over what comes before it.
  const start = range.start?.inclusive === false ? range.start.value : undefined;
  let previous: string | undefined;
  let count = 0;
  let next = readPage(reader, 1, start);
  for (let page = 1; ; page += 1) {
    const items = await next;
    const more = items.length >= reader.pageSize;
    if (more) {
      next = readPage(reader, page + 1, start);
      next.catch(() => undefined); // awaited on the next turn; never an unhandled rejection
    }
    for (const item of items) {
      const cursor = valueAtPath(item, field);
      if (cursor === undefined || cursor === '') {
        throw new ExportListingError(
          reader.operationId,
          `an item of page ${page} has no ${field} (the cursor's field)`,
          { page },
        );
      }
      if (previous !== undefined && compareCursor(cursor, previous) <= 0) {
        throw new ExportListingError(
          reader.operationId,
          `the listing is not in ascending order of ${field} ("${cursor}" came after ` +
            `"${previous}", page ${page}), so pages read while items arrive could skip or ` +
            'repeat some',
          { page },
        );
      }
      previous = cursor;
      if (!isPastStart(cursor, range.start)) continue;
      if (range.stop !== undefined && compareCursor(cursor, range.stop) > 0) return;
      yield { item, cursor };
      count += 1;
      if (range.maxItems !== undefined && count >= range.maxItems) return;
    }
    if (!more) return;
  }
}
