/** The row writer of a target's format. */
import type { ExportTargetFile } from '../../pipeline/index.js';
import { csvWriter } from './csv-writer.js';
import { jsonWriter, ndjsonWriter } from './json-writer.js';
import type { RowWriter } from './row-writer.js';
import { xlsxWriter } from './xlsx-writer.js';

export type { RowWriter } from './row-writer.js';

export function rowWriterFor(target: ExportTargetFile, names: readonly string[]): RowWriter {
  switch (target.format) {
    case 'csv':
      return csvWriter(target, names);
    case 'json':
      return jsonWriter(names);
    case 'ndjson':
      return ndjsonWriter(names);
    case 'xlsx':
      return xlsxWriter(names);
  }
}
