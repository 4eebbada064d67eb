/**
 * The csv connector: delimited text, streamed in constant memory. Reads the head of the input to
 * learn the encoding, skips `skipLines`, finds the delimiter on the header line, then feeds the
 * incremental parser chunk by chunk.
 */
import { defineConnector } from '../define-connector.js';
import type { ConnectorInput, ReadItem, ReadMeta } from '../types.js';
import { ConnectorError } from '../errors.js';
import { decodeText } from '../text/decode-text.js';
import { CsvParser, type CsvRow } from './csv-parser.js';
import { countDelimiters, detectDelimiter, firstLineEnd } from './detect-delimiter.js';
import { columnNames, otherFormatOf } from './header.js';
import { hasUnreadable, unreadableProblem } from '../text/unreadable-chars.js';
import { CSV_DELIMITERS, csvOptions, type CsvOptions } from './options.js';

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

/**
 * Index just past the first `count` line breaks (LF, CR or CRLF), or -1 when the text has fewer
 * (or ends with a CR whose LF may be in the next chunk).
 */
function afterLines(text: string, count: number): number {
  let at = 0;
  for (let n = 0; n < count; n++) {
    const lf = text.indexOf('\n', at);
    const cr = text.indexOf('\r', at);
    const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
    if (end === -1) return -1;
    if (text[end] === '\r') {
      if (end + 1 === text.length) return -1;
      at = text[end + 1] === '\n' ? end + 2 : end + 1;
    } else at = end + 1;
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
        `${name}: the header line runs past ${MAX_HEADER_CHARS} characters without a line break ` +
          '(a header with hundreds of thousands of columns, or not a CSV file): reading stopped.',
        { file: name, line: o.skipLines + 1 },
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

/** The header as the records are read against: column names, '' for a column to ignore. */
interface CsvHeader {
  names: string[];
  /** Indexes of the columns with a name. */
  named: number[];
  /** Fields a record needs: up to the last named column (unnamed ones after it may be left out). */
  needed: number;
}

function csvHeader(names: string[]): CsvHeader {
  const named = names.flatMap((name, i) => (name === '' ? [] : [i]));
  return { names, named, needed: (named.at(-1) ?? -1) + 1 };
}

function rowError(file: string, row: CsvRow, message: string, field?: string): ReadItem {
  return { error: { file, line: row.line, ...(field === undefined ? {} : { field }), message } };
}

/**
 * Whether a field past the header's columns holds a value (records parsed before the header was
 * known keep their extra values; later ones only flag them).
 */
function extraValue(row: CsvRow, columns: number): boolean {
  if (row.extraValue) return true;
  for (let k = columns; k < row.values.length; k++) if (row.values[k] !== '') return true;
  return false;
}

/** Why a record cannot be read, else undefined. */
function rowProblem(
  row: CsvRow,
  header: CsvHeader,
  o: CsvOptions,
  file: string,
  suspect: boolean,
): ReadItem | undefined {
  const names = header.names;
  if (row.problem) {
    const column = row.problem.column;
    return rowError(
      file,
      row,
      row.problem.message,
      column === undefined ? undefined : names[column],
    );
  }
  const count = row.fieldCount;
  if (count > names.length && extraValue(row, names.length)) {
    return rowError(
      file,
      row,
      `the record has ${count} fields where the header has ${names.length}, and a field past ` +
        'the last column holds a value (a field holding the delimiter or a line break must be quoted)',
    );
  }
  if (count < header.needed && o.shortRecords === 'reject') {
    return rowError(
      file,
      row,
      `the record has ${count} field${count === 1 ? '' : 's'} where the header has ${header.needed} (a field holding the ` +
        'delimiter or a line break must be quoted; if the export leaves out trailing empty fields, ' +
        'give the option shortRecords=pad)',
    );
  }
  const values = row.values;
  if (header.named.length < names.length) {
    for (let k = 0; k < values.length && k < names.length; k++) {
      if (names[k] === '' && values[k] !== '') {
        return rowError(
          file,
          row,
          `field ${k + 1} holds a value but its column has no name in the header: name the column, or empty the field`,
        );
      }
    }
  }
  if (suspect) {
    for (let k = 0; k < values.length && k < names.length; k++) {
      const problem = unreadableProblem(values[k]!);
      if (problem) return rowError(file, row, problem, names[k] || `field ${k + 1}`);
    }
  }
  return undefined;
}

function rowItem(
  row: CsvRow,
  header: CsvHeader,
  o: CsvOptions,
  file: string,
  suspect: boolean,
): ReadItem {
  const problem = rowProblem(row, header, o, file, suspect);
  if (problem) return problem;
  const fields: Record<string, string> = {};
  const values = row.values;
  const names = header.names;
  // Fields past the end of a short record (padded, or unnamed columns) read as empty.
  for (const k of header.named) fields[names[k]!] = values[k] ?? '';
  return { record: { fields, source: { file, line: row.line } } };
}

async function* readCsv(
  input: ConnectorInput,
  o: CsvOptions,
  meta: ReadMeta,
): AsyncGenerator<ReadItem> {
  const name = input.name;
  const chunks = decodeText(input.stream, {
    name,
    encoding: o.encoding,
    meta,
    invalidBytes: 'escape',
  });
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
      maxRecordBytes: o.maxRecordBytes,
      maxFields: MAX_COLUMNS + 1,
      firstLine: o.skipLines + 1,
    });
    let header: CsvHeader | undefined;
    const rows: CsvRow[] = [];
    let text: string | undefined = head.text;
    let ended = head.ended;
    // Once a chunk holds an unreadable character, every record from there on is checked for one.
    let suspect = false;
    while (text !== undefined) {
      suspect ||= hasUnreadable(text);
      parser.push(text, rows);
      if (ended) parser.end(rows);
      for (const row of rows) {
        // A record whose field was too large reads as empty: it is an error, never a blank line.
        if (!row.problem && isBlankRow(row)) continue;
        if (!header) {
          header = csvHeader(makeHeader(row, o, name));
          meta.header = header.named.map((k) => header!.names[k]!);
          const ignored = header.names.flatMap((n, k) => (n === '' ? [k + 1] : []));
          if (ignored.length > 0) meta.ignoredColumns = ignored;
          parser.maxFields = header.names.length;
          if (o.header) continue;
        }
        yield rowItem(row, header, o, name, suspect);
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
  return columnNames(row.values, file, row.line, o.invisibleInNames);
}

export const csvConnector = defineConnector({
  name: 'csv',
  description: 'Delimited text (CSV, TSV, semicolon exports), streamed in constant memory.',
  extensions: ['.csv', '.tsv', '.txt'],
  mediaTypes: ['text/csv', 'application/csv', 'text/tab-separated-values'],
  options: csvOptions,
  notes: [
    'A record is `{fields: {column name: value}, source: {file, line}}`. Values are the raw text ' +
      '(not trimmed; header names are trimmed); `line` is the physical line on which the record ' +
      'starts: the header is line 1, and blank lines and the extra lines of quoted multi-line ' +
      'fields count.',
    'Quoted fields may hold the delimiter, doubled quotes (`""`) and line breaks (kept as they are ' +
      'in the file). Lines may end with LF, CRLF or a lone CR (as some spreadsheet programs write), ' +
      'mixed in one file too. A blank line, or a record whose every field is empty, is skipped ' +
      '(and counted for line numbers).',
    'How the encoding is decided (`encoding: auto`): a byte-order mark decides; else the bytes ' +
      'are weighed, valid multi-byte UTF-8 sequences against bytes that cannot be UTF-8, over the ' +
      'first 64 KiB (or, when they are all ASCII, from the first non-ASCII bytes on, however late), ' +
      'so one stray byte never decides for the whole file. UTF-8 wins when its sequences are at ' +
      'least as many as the invalid bytes, else Windows-1252. `ferry read` shows the decision and ' +
      'its evidence. In a file read as UTF-8 (detected or given), a record holding a byte that is ' +
      'not valid UTF-8 is rejected naming the byte, its line, field and character; every other ' +
      'record reads exactly.',
    'A record holding a NUL or another control byte (other than tab, CR and LF) is rejected ' +
      'likewise; the rest read. A whole file is refused as not text only when its head is not ' +
      'text: a zip archive, gzip, a PDF, an image, UTF-16 without a byte-order mark, or mostly ' +
      'control bytes; the message says which. Input that is plainly another format (XML, JSON) ' +
      'is refused naming the connector to use.',
    'Forgiving where nothing is lost, strict where something would be: extra fields that are ' +
      'all empty (a trailing delimiter) are ignored, an extra field with a value rejects the ' +
      'record; a short record is rejected unless `shortRecords: pad` (its missing trailing ' +
      'fields read as empty); columns whose header name is empty are ignored (`ferry read` lists ' +
      'them) as long as their fields are empty, while two non-empty names that repeat refuse the ' +
      'file. A field over `maxFieldBytes`, a record over `maxRecordBytes` or a quoted field that is never closed gives an error ' +
      'item with its line; the other records go on.',
    'An input that gives no record at all (an empty file, a header alone) is refused with ' +
      '`FERRY_NO_RECORDS`, except in a changes-mode pipeline, where an empty change feed is a ' +
      'quiet day.',
  ],
  read: readCsv,
});
