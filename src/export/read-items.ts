/**
 * Reads an export's listing page by page as its binding's paging says (src/interface/read-pages.ts),
 * with the read's fixed query and, with `cursor.param`, the cursor: the platform answers only the
 * items after it. The next page is requested while the caller writes the one before. Items come in the listing's order, which must be the cursor's (ascending, each value
 * after the one before): a listing sorted otherwise would skip or repeat items between pages as
 * new ones arrive, so it stops the export (ExportListingError) instead. Items up to the start are
 * passed over; reading ends at the last page, past `stop` (re-publishing a pending range), or after
 * `maxItems`. A transient failure or a 429 of a page is tried again (delivery.attempts and
 * backoff; a 429 waits as told) before the export gives up with the interface's error.
 */
import type { FerryConfig } from '../config/index.js';
import { type InterfaceClient, readPages } from '../interface/index.js';
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

/** The items of the range, in the cursor's order, each with its cursor value. */
export async function* readItems(reader: ItemReader, range: ReadRange): AsyncGenerator<CursorItem> {
  if (range.maxItems === 0) return;
  const { field } = reader.cursor;
  // The parameter asks for the items after a value: an inclusive start (--since) reads from the
  // first page and passes over what comes before it.
  const start = range.start?.inclusive === false ? range.start.value : undefined;
  let previous: string | undefined;
  let count = 0;
  const query: Record<string, string> = { ...reader.query };
  if (reader.cursor.param && start !== undefined) query[reader.cursor.param] = start;
  for await (const { number: page, items } of readPages({ ...reader, query })) {
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
  }
}
