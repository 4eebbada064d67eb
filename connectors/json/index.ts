/**
 * The json connector: a JSON array of objects or NDJSON (one object per line), streamed: only
 * one record's text is held at a time. Each object becomes fields (see flatten.ts) with exact
 * number text (see quote-numbers.ts).
 */
import { isOversized, oversizedMessage } from '../bounded-text.js';
import { defineConnector } from '../define-connector.js';
import type { ConnectorInput, ReadItem, ReadMeta } from '../types.js';
import { ConnectorError } from '../errors.js';
import { decodeText } from '../text/decode-text.js';
import { cleanFieldNames, showInvisible } from '../text/invisible-chars.js';
import { hasUnreadable, unreadableProblem } from '../text/unreadable-chars.js';
import { ArrayScanner } from './array-scanner.js';
import { flattenObject, MAX_NESTING, UnflattenableRecord } from './flatten.js';
import { LineSplitter, type TextPiece } from './ndjson-lines.js';
import { jsonOptions, type JsonOptions } from './options.js';
import { InvalidJsonNumber, quoteNumbers, type KeyTally } from './quote-numbers.js';
import { findRepeatedKey } from './repeated-key.js';

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string'
    ? 'a string'
    : typeof value === 'boolean'
      ? 'a boolean'
      : 'a number';
}

/** A record's text -> its fields, or an error saying why it cannot be read. */
function parseRecord(text: string, file: string, line: number, o: JsonOptions): ReadItem {
  const fail = (message: string, field?: string): ReadItem => ({
    error: { file, line, ...(field === undefined ? {} : { field }), message },
  });
  const tally: KeyTally = { keys: 0 };
  let value: unknown;
  try {
    value = JSON.parse(quoteNumbers(text, tally));
  } catch (error) {
    const why = error instanceof InvalidJsonNumber ? error.message : (error as Error).message;
    return fail(`the record is not valid JSON: ${why}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`expected a JSON object, found ${kindOf(value)}`);
  }
  const keysInText = tally.keys;
  tally.keys = 0;
  let fields: Record<string, string>;
  try {
    fields = flattenObject(value as Record<string, unknown>, tally);
  } catch (error) {
    if (error instanceof UnflattenableRecord) return fail(error.message);
    throw error;
  }
  const repeated = tally.keys === keysInText ? undefined : findRepeatedKey(text);
  if (repeated) {
    const where = repeated.lineOffset > 0 ? ` (again on line ${line + repeated.lineOffset})` : '';
    return fail(
      `the key "${showInvisible(repeated.key)}" is given twice in one object${where}: JSON would keep ` +
        'the last value without a word, so the record was not read',
      showInvisible(repeated.path),
    );
  }
  const named = cleanFieldNames(fields, o.invisibleInNames);
  if ('message' in named) return fail(named.message, named.field);
  return { record: { fields: named.fields, source: { file, line } } };
}

function toItem(piece: TextPiece, file: string, o: JsonOptions, suspect: boolean): ReadItem {
  const { line, text } = piece;
  if (isOversized(text)) {
    const message = oversizedMessage(
      'the record',
      text,
      'json',
      'maxRecordBytes',
      o.maxRecordBytes,
    );
    return { error: { file, line, message } };
  }
  const unreadable = suspect ? unreadableProblem(text) : undefined;
  if (unreadable) return { error: { file, line, message: `the record ${unreadable}` } };
  return parseRecord(text, file, line, o);
}

/** The format, from the option or the first character that is not white space. */
function chooseFormat(first: string, o: JsonOptions, name: string): 'array' | 'ndjson' {
  const found = first === '[' ? 'array' : first === '{' ? 'ndjson' : undefined;
  if (found && (o.format === 'auto' || o.format === found)) return found;
  if (found) {
    throw new ConnectorError(
      `${name} starts with "${first}", which opens ${found === 'array' ? 'an array' : 'NDJSON objects'}, but the format option says ${o.format}.`,
      { file: name },
    );
  }
  const hint = first === '<' ? ' It looks like XML: read it with the xml connector.' : ' Not JSON?';
  throw new ConnectorError(
    `${name} starts with "${first}": expected a JSON array ([) or NDJSON objects ({).${hint}`,
    { file: name },
  );
}

async function* readJson(
  input: ConnectorInput,
  o: JsonOptions,
  meta: ReadMeta,
): AsyncGenerator<ReadItem> {
  const name = input.name;
  let splitter: { push(text: string, out: TextPiece[]): void } | undefined;
  let finish: (out: TextPiece[]) => void = () => undefined;
  const pieces: TextPiece[] = [];
  // Once a chunk holds an unreadable character, every record from there on is checked for one.
  let suspect = false;
  const texts = decodeText(input.stream, {
    name,
    encoding: o.encoding,
    meta,
    invalidBytes: 'escape',
  });
  for await (const text of texts) {
    suspect ||= hasUnreadable(text);
    if (!splitter) {
      const first = text.trimStart()[0];
      if (first === undefined) continue; // only white space so far
      const format = chooseFormat(first, o, name);
      meta.format = format;
      if (format === 'array') {
        const scanner = new ArrayScanner(o.maxRecordBytes, name);
        finish = () => scanner.end();
        splitter = scanner;
      } else {
        const lines = new LineSplitter(o.maxRecordBytes);
        finish = (out) => lines.end(out);
        splitter = lines;
      }
    }
    splitter.push(text, pieces);
    for (const piece of pieces) yield toItem(piece, name, o, suspect);
    pieces.length = 0;
  }
  finish(pieces);
  for (const piece of pieces) yield toItem(piece, name, o, suspect);
}

export const jsonConnector = defineConnector({
  name: 'json',
  description: 'A JSON array of objects, or NDJSON (one object per line), streamed.',
  extensions: ['.json', '.ndjson', '.jsonl'],
  mediaTypes: [
    'application/json',
    'application/x-ndjson',
    'application/ndjson',
    'application/jsonl',
    '+json',
  ],
  options: jsonOptions,
  notes: [
    'Each object is a record; `line` is the line on which it starts. Values become strings: ' +
      'numbers keep their exact text from the file (`1299.10` stays `1299.10`, never a float), ' +
      'booleans give `true`/`false`, null gives an empty string.',
    'Nested objects are flattened with dotted keys (`{"address": {"city": "Oslo"}}` gives the ' +
      'field `address.city`), arrays with their index (`tags.0`, `tags.1`); an empty object or ' +
      `array gives no field. A record nested deeper than ${MAX_NESTING} levels is an error item.`,
    'A record that gives one key twice in an object (`{"sku":"J2","sku":"J3"}`, where JSON ' +
      'parsers keep the last value silently) is an error item naming the key and the line of the ' +
      'repeat.',
    'An element or line that is not valid JSON, not an object, or over `maxRecordBytes` gives an ' +
      'error item with its line, and reading goes on. A broken array (a missing comma, an array ' +
      'that is never closed: a truncated file) stops the reading with an error naming the file and line.',
  ],
  read: readJson,
});
