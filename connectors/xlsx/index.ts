/**
 * The xlsx connector: one sheet of an Office Open XML workbook, streamed. The archive is read in
 * place (random access, yauzl); a stream that is not a local file is first copied to a temporary
 * file. Only the shared strings are held whole in memory, as the format requires.
 */
import { defineConnector } from '../define-connector.js';
import type { ConnectorInput, ReadItem, ReadMeta } from '../types.js';
import { ConnectorError } from '../errors.js';
import { xlsxOptions, type XlsxOptions } from './options.js';
import { readDateStyles, readSharedStrings, readWorkbook, type SheetRef } from './parts.js';
import { isEmptyRow, makeHeader, rowItem, type CellContext, type Header } from './row-items.js';
import { sheetRows } from './sheet-rows.js';
import { spoolToFile } from './spool.js';
import { openZip } from './zip.js';

function chooseSheet(sheets: SheetRef[], wanted: string | undefined, file: string): SheetRef {
  const names = sheets.map((s) => `"${s.name}"`).join(', ');
  if (sheets.length === 0)
    throw new ConnectorError(`${file}: the workbook has no worksheet.`, { file });
  if (wanted === undefined) return sheets[0]!;
  const byName = sheets.find((s) => s.name === wanted);
  if (byName) return byName;
  const index = /^\d+$/.test(wanted) ? Number(wanted) : NaN;
  if (index >= 1 && index <= sheets.length) return sheets[index - 1]!;
  throw new ConnectorError(
    `${file} has no sheet "${wanted}": its sheets are ${names} (give a name, or a position from 1 to ${sheets.length}).`,
    { file },
  );
}

async function* readXlsx(
  input: ConnectorInput,
  o: XlsxOptions,
  meta: ReadMeta,
): AsyncGenerator<ReadItem> {
  const file = input.name;
  const local = input.path
    ? { path: input.path, remove: async () => undefined }
    : await spoolToFile(input.stream);
  try {
    const zip = await openZip(local.path, file, o);
    try {
      const workbook = await readWorkbook(zip);
      const sheet = chooseSheet(workbook.sheets, o.sheet, file);
      meta.sheets = workbook.sheets.map((s) => s.name);
      meta.sheet = sheet.name;
      const ctx: CellContext = {
        strings: workbook.sharedStrings ? await readSharedStrings(zip, workbook.sharedStrings) : [],
        dateStyles: workbook.styles ? await readDateStyles(zip, workbook.styles) : [],
        date1904: workbook.date1904,
        maxFieldBytes: o.maxFieldBytes,
      };
      let header: Header | undefined;
      for await (const rows of sheetRows(zip, sheet.part)) {
        for (const row of rows) {
          if (!header) {
            if (o.headerRow !== undefined ? row.number !== o.headerRow : isEmptyRow(row, ctx))
              continue;
            header = makeHeader(row, ctx, file, o.invisibleInNames);
            meta.header = [...header.values()];
            continue;
          }
          if (!isEmptyRow(row, ctx)) yield rowItem(row, header, ctx, file);
        }
      }
      meta.header ??= [];
    } finally {
      zip.close();
    }
  } finally {
    await local.remove();
  }
}

export const xlsxConnector = defineConnector({
  name: 'xlsx',
  description: 'One sheet of an Excel workbook (.xlsx), streamed, with a header row.',
  extensions: ['.xlsx', '.xlsm'],
  mediaTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  options: xlsxOptions,
  notes: [
    'A record is one row below the header row; `line` is its row number as the spreadsheet shows ' +
      'it. Empty rows are skipped; a missing cell reads as an empty string.',
    'Cell values become text: shared and inline strings as they are; numbers as Excel shows them ' +
      '(15 significant digits, no float noise such as `2867.7700000000004`, never in exponent ' +
      'form); cells with a date or time format as ISO 8601 (`2026-02-14`, `2026-02-14T08:30:00`, ' +
      '`08:30:00`), in the 1900 or 1904 date system the workbook uses; booleans as `true`/`false`; ' +
      'formulas by their cached value.',
    'A cell holding an error (`#N/A`, `#DIV/0!`), or a value in a column without a header, gives ' +
      'an error item for its row; the other rows go on. A file that is not a zip archive, or a zip ' +
      'without a workbook, is refused with an error naming the file.',
  ],
  read: readXlsx,
});
