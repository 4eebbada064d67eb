/**
 * The heart of an export: the items of a range read from the platform, mapped to rows and written
 * by the target's format into a sink (a temporary file, or only a hash for a dry run), one page in
 * memory at a time. Says how many items and rows it wrote and the cursor values of the first and
 * last item.
 */
import type { ExportDefinition } from '../pipeline/index.js';
import { ExportInterruptedError, ExportRecordError } from './errors.js';
import type { FileSink } from './file-sink.js';
import { rowWriterFor } from './formats/index.js';
import { RowProblem, rowBuilder, rowReader } from './item-rows.js';
import { readItems, type ItemReader, type ReadRange } from './read-items.js';

export interface WrittenRows {
  items: number;
  records: number;
  first: string | null;
  last: string | null;
}

function asRecordError(definition: ExportDefinition, cursor: string, error: unknown): unknown {
  return error instanceof RowProblem
    ? new ExportRecordError(definition.name, cursor, error.field, error.message)
    : error;
}

export async function writeRows(
  definition: ExportDefinition,
  reader: ItemReader,
  range: ReadRange,
  sink: FileSink,
): Promise<WrittenRows> {
  const writer = rowWriterFor(
    definition.target,
    definition.fields.map((f) => f.name),
  );
  const build = rowBuilder(definition);
  const rowsOf = rowReader(definition);
  const out: WrittenRows = { items: 0, records: 0, first: null, last: null };
  try {
    await sink.write(writer.start());
  } catch (error) {
    throw asRecordError(definition, '(the header)', error);
  }
  for await (const { item, cursor } of readItems(reader, range)) {
    for (const fields of rowsOf(item)) {
      let bytes: Buffer;
      try {
        bytes = writer.row(build(fields));
      } catch (error) {
        throw asRecordError(definition, cursor, error);
      }
      await sink.write(bytes);
      out.records += 1;
    }
    out.items += 1;
    out.first ??= cursor;
    out.last = cursor;
    if (reader.signal?.aborted) throw new ExportInterruptedError(definition.name);
  }
  await sink.write(writer.end());
  return out;
}
