/**
 * The csv connector: delimited text, streamed in constant memory. Reads the head of the input to
 * learn the encoding, skips `skipLines`, finds the delimiter on the header line, then feeds the
 * incremental parser chunk by chunk.
 */
import type { Connector, ConnectorInput, ReadItem, ReadMeta } from '../types.js';
import { ConnectorError } from '../errors.js';
import { decodeText } from '../text/decode-text.js';
import { CsvParser, type CsvRow } from './csv-parser.js';
import { countDelimiters, detectDelimiter, firstLineEnd } from './detect-delimiter.js';
import { columnNames, otherFormatOf } from './header.js';
import { CSV_DELIMITERS, csvOptionDeclarations, csvOptions, type CsvOptions } from './options.js';

/** The header line must end within this much text, or the input is not a CSV file. */
const MAX_HEADER_CHARS = 1024 * 1024;
/** Columns a header may have before the input is judged not to be CSV. */
const MAX_COLUMNS = 16_384;

function isBlankRow(row: CsvRow): boolean {
  for (const v of row.values) {
    for (let i = 0; i < v.length; i++) {
      const c = v.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13) return false;
    }
  }
  return true;
}

/** Index just past the first `count` line breaks, or -1 when the text has fewer. */
function afterLines(text: string, count: number): number {
  let at = 0;
  for (let n = 0; n < count; n++) {
    const nl = text.indexOf('\n', at);
    if (nl === -1) return -1;
    at = nl + 1;
  }
  return at;
}

/**
 * Reads text until the skipped lines and the whole header line are in hand; returns the text from
 * the header line on (the rest of the input follows through `chunks`).
 */
async function headText(
  chunks: AsyncIterator<string>,
  o: CsvOptions,
  name: string,
): Promise<{ text: string; ended: boolean }> {
  let text = '';
  let ended = false;
  for (;;) {
    const start = afterLines(text, o.skipLines);
    if (start !== -1 && firstLineEnd(text.slice(start), o.quote) !== -1)
      return { text: text.slice(start), ended };
    if (ended) return { text: start === -1 ? '' : text.slice(start), ended };
    if (text.length > (o.skipLines + 1) * MAX_HEADER_CHARS) {
      throw new ConnectorError(
        `${name}: no line break in the first ${MAX_HEADER_CHARS} characters of the header: not a CSV file?`,
        { file: name },
      );
    }
    const next = await chunks.next();
    if (next.done) ended = true;
    else text += next.value;
  }
}

function chooseDelimiter(headerLine: string, o: CsvOptions, name: string, meta: ReadMeta): string {
  if (o.delimiter === 'auto') {
    meta.delimiterSource = 'detected';
    return detectDelimiter(headerLine, o.quote);
  }
  meta.delimiterSource = 'option';
  const delimiter = CSV_DELIMITERS[o.delimiter];
  const counts = countDelimiters(headerLine, o.quote);
  const likely = detectDelimiter(headerLine, o.quote);
  if (counts.get(delimiter) === 0 && counts.get(likely)! > 0) {
    throw new ConnectorError(
      `${name}: the header line has no "${o.delimiter}" (the delimiter option) but ${counts.get(likely)} ` +
        `"${likely === '\t' ? 'tab' : likely}": give delimiter=auto or the right one.`,
      { file: name },
    );
  }
  return delimiter;
}

function rowItem(row: CsvRow, header: string[], file: string): ReadItem {
  if (row.problem) {
    const column = row.problem.column;
    const field = column === undefined ? undefined : header[column];
    return {
      error: {
        file,
        line: row.line,
        ...(field === undefined ? {} : { field }),
        message: row.problem.message,
      },
    };
  }
  if (row.fieldCount !== header.length) {
    return {
      error: {
        file,
        line: row.line,
        message:
          `the record has ${row.fieldCount} fields where the header has ${header.length} ` +
          '(a field holding the delimiter or a line break must be quoted)',
      },
    };
  }
  const fields: Record<string, string> = {};
  const values = row.values;
  for (let k = 0; k < header.length; k++) fields[header[k]!] = values[k]!;
  return { record: { fields, source: { file, line: row.line } } };
}

async function* readCsv(
  input: ConnectorInput,
  options: Record<string, unknown>,
  meta: ReadMeta,
): AsyncGenerator<ReadItem> {
  const o = csvOptions(options);
  const name = input.name;
  const chunks = decodeText(input.stream, { name, encoding: o.encoding, meta });
  try {
    const head = await headText(chunks, o, name);
    const lineEnd = firstLineEnd(head.text, o.quote);
    const headerLine = lineEnd === -1 ? head.text : head.text.slice(0, lineEnd);
    const other = otherFormatOf(headerLine);
    if (other) {
      throw new ConnectorError(
        `${name} looks like ${other.kind}, not CSV: read it with the ${other.connector} connector.`,
        { file: name },
      );
    }
    const delimiter = chooseDelimiter(headerLine, o, name, meta);
    meta.delimiter = delimiter;
    const parser = new CsvParser({
      delimiter,
      quote: o.quote,
      maxFieldBytes: o.maxFieldBytes,
      maxFields: MAX_COLUMNS + 1,
      firstLine: o.skipLines + 1,
    });
    let header: string[] | undefined;
    const rows: CsvRow[] = [];
    let text: string | undefined = head.text;
    let ended = head.ended;
    while (text !== undefined) {
      parser.push(text, rows);
      if (ended) parser.end(rows);
      for (const row of rows) {
        if (isBlankRow(row)) continue;
        if (!header) {
          header = makeHeader(row, o, name);
          meta.header = header;
          parser.maxFields = header.length + 1;
          if (o.header) continue;
        }
        yield rowItem(row, header, name);
      }
      rows.length = 0;
      if (ended) break;
      const next = await chunks.next();
      if (next.done) [text, ended] = ['', true];
      else text = next.value;
    }
    meta.header ??= [];
  } finally {
    await chunks.return(undefined);
  }
}

function makeHeader(row: CsvRow, o: CsvOptions, file: string): string[] {
  if (row.problem) {
    throw new ConnectorError(
      `${file}: the header (line ${row.line}) cannot be read: ${row.problem.message}.`,
      {
        file,
        line: row.line,
      },
    );
  }
  if (row.fieldCount > MAX_COLUMNS) {
    throw new ConnectorError(
      `${file}: the header (line ${row.line}) has more than ${MAX_COLUMNS} columns: not a CSV file?`,
      { file, line: row.line },
    );
  }
  if (!o.header) return row.values.map((_v, i) => String(i + 1));
  return columnNames(row.values, file, row.line);
}

export const csvConnector: Connector = {
  name: 'csv',
  description: 'Delimited text (CSV, TSV, semicolon exports), streamed in constant memory.',
  extensions: ['.csv', '.tsv', '.txt'],
  options: csvOptionDeclarations,
  notes: [
    'A record is `{fields: {column name: value}, source: {file, line}}`. Values are the raw text ' +
      '(not trimmed; header names are trimmed); `line` is the physical line on which the record ' +
      'starts: the header is line 1, and blank lines and the extra lines of quoted multi-line ' +
      'fields count.',
    'Quoted fields may hold the delimiter, doubled quotes (`""`) and line breaks (kept as they are ' +
      'in the file). CRLF and LF line ends are both read. A blank line, or a record whose every ' +
      'field is empty, is skipped (and counted for line numbers).',
    'A record with another number of fields than the header, a field over `maxFieldBytes`, or a ' +
      'quoted field that is never closed gives an error item with its line; the other records go ' +
      'on. Input that is plainly not CSV (XML, JSON, a zip archive, binary data, gzip) is refused ' +
      'with an error naming the file.',
  ],
  read: readCsv,
};
