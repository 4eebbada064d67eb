/**
 * What turns an export's rows into the bytes of its file, one format each (csv, json, ndjson,
 * xlsx). A writer is synchronous and keeps no rows: the run streams each row's bytes to the file.
 */
import type { Cell } from '../item-rows.js';

export interface RowWriter {
  /** The bytes before the first row (a header, `[`, the workbook's fixed parts). */
  start(): Buffer;
  /** Throws RowProblem (item-rows.ts) for a value the file cannot hold. */
  row(cells: readonly Cell[]): Buffer;
  /** The bytes after the last row. */
  end(): Buffer;
}
