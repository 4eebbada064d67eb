/**
 * The streaming parsers get text in chunks wherever the input happens to be cut. Each must give
 * the same result for any cut: these tests feed them the same text whole and in pieces of 1 to 8
 * characters, so that every state meets a boundary.
 */
import { describe, expect, it } from 'vitest';
import { CsvParser, type CsvRow } from '../../connectors/csv/csv-parser.js';
import { ArrayScanner } from '../../connectors/json/array-scanner.js';
import { LineSplitter, type TextPiece } from '../../connectors/json/ndjson-lines.js';
import { xmlConnector } from '../../connectors/xml/index.js';
import { lines, readBytes } from './helpers/read.js';

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const SIZES = [1, 2, 3, 4, 5, 8];

describe('csv parser across chunk boundaries', () => {
  const text =
    'k;"v";w\r\n1;"a""b";x\r\n2;"x\r\ny;z";\r\n\r\n3;æøå;"q"\r\n4;"";last\r\n5;"bad"x;y\r\n6;7;8';

  function parse(input: string[], maxFieldBytes = 1000): CsvRow[] {
    const parser = new CsvParser({
      delimiter: ';',
      quote: '"',
      maxFieldBytes,
      maxRecordBytes: 10_000,
      maxFields: 10,
      firstLine: 1,
    });
    const rows: CsvRow[] = [];
    for (const piece of input) parser.push(piece, rows);
    parser.end(rows);
    return rows;
  }

  it('reads the text whole as expected', () => {
    const rows = parse([text]);
    expect(rows.map((r) => [r.line, r.values])).toEqual([
      [1, ['k', 'v', 'w']],
      [2, ['1', 'a"b', 'x']],
      [3, ['2', 'x\r\ny;z', '']],
      [5, []], // a blank line (the connector skips it)
      [6, ['3', 'æøå', 'q']],
      [7, ['4', '', 'last']],
      [8, ['5', 'badx', 'y']],
      [9, ['6', '7', '8']],
    ]);
    expect(rows[6]!.problem?.message).toMatch(/text after the closing quote/);
  });

  it.each(SIZES)('gives the same rows in pieces of %i', (size) => {
    expect(parse(pieces(text, size))).toEqual(parse([text]));
  });

  it.each(SIZES)('applies maxFieldBytes the same in pieces of %i', (size) => {
    const long = `a;b\r\n1;${'x'.repeat(30)}\r\n2;"${'y'.repeat(30)}"\r\n3;ok\r\n`;
    const rows = parse(pieces(long, size), 20);
    expect(rows.map((r) => [r.line, r.problem ? 'too big' : r.values])).toEqual([
      [1, ['a', 'b']],
      [2, 'too big'],
      [3, 'too big'],
      [4, ['3', 'ok']],
    ]);
  });
});

describe('json splitters across chunk boundaries', () => {
  const array = '[\n {"a": "x]}", "b": [1, {"c": "\\""}]},\n 12,\n "s,t",\n {"d": {}}\n]';
  const ndjson = '{"a":"1"}\r\n\n{"b":"}\\n"}\n{"c":3}';

  function scan(input: string[]): TextPiece[] {
    const scanner = new ArrayScanner(1000, 'test');
    const out: TextPiece[] = [];
    for (const piece of input) scanner.push(piece, out);
    scanner.end();
    return out;
  }

  function split(input: string[]): TextPiece[] {
    const splitter = new LineSplitter(1000);
    const out: TextPiece[] = [];
    for (const piece of input) splitter.push(piece, out);
    splitter.end(out);
    return out;
  }

  it('finds the array elements and their lines', () => {
    expect(scan([array])).toEqual([
      { line: 2, text: '{"a": "x]}", "b": [1, {"c": "\\""}]}' },
      { line: 3, text: '12' },
      { line: 4, text: '"s,t"' },
      { line: 5, text: '{"d": {}}' },
    ]);
    expect(split([ndjson])).toEqual([
      { line: 1, text: '{"a":"1"}\r' },
      { line: 3, text: '{"b":"}\\n"}' },
      { line: 4, text: '{"c":3}' },
    ]);
  });

  it.each(SIZES)('gives the same elements and lines in pieces of %i', (size) => {
    expect(scan(pieces(array, size))).toEqual(scan([array]));
    expect(split(pieces(ndjson, size))).toEqual(split([ndjson]));
  });
});

describe('xml connector across chunk boundaries', () => {
  it('gives the same records when the text after the first 64 KiB arrives 3 bytes at a time', async () => {
    const doc = `${' '.repeat(70_000)}<R>\n<I a="1"><N>Blåbær &amp; <![CDATA[<x>]]></N></I>\n<I><N>2</N><N>3</N></I></R>`;
    const whole = await readBytes(xmlConnector, doc, { recordElement: 'I' });
    const small = await readBytes(xmlConnector, doc, { recordElement: 'I' }, 3);
    expect(lines(whole.records)).toEqual([
      [2, { '@a': '1', N: 'Blåbær & <x>' }],
      [3, { N: '2', 'N[2]': '3' }],
    ]);
    expect(lines(small.records)).toEqual(lines(whole.records));
  });
});
