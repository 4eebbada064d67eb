/**
 * Exports as ERPs and PIMs really write them: a stray byte in UTF-8, a NUL in one record, CR-only
 * line ends, trailing delimiters, rows that leave out trailing fields, header columns without a
 * name. Each is either read exactly or rejected record by record, naming file, line and field;
 * nothing is garbled or dropped without a word.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csvConnector } from '../../connectors/csv/index.js';
import { ConnectorError } from '../../connectors/errors.js';
import { jsonConnector } from '../../connectors/json/index.js';
import { readSource } from '../../connectors/read-source.js';
import { collect, lines, readBytes } from './helpers/read.js';
import { tempDir } from './helpers/tmp.js';

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
const cp1252 = (text: string): Buffer => Buffer.from(text, 'latin1');

/** `rows` product rows "Crème brûlée café N" in UTF-8, with one 0xFF byte inside row `badRow`. */
function productExport(rows: number, badRow: number): Buffer {
  const parts: Buffer[] = [utf8('sku,name\n')];
  for (let n = 1; n <= rows; n++) {
    const name =
      n === badRow
        ? [utf8('Crème '), Buffer.from([0xff]), utf8(` brûlée ${n}`)]
        : [utf8(`Crème brûlée café ${n}`)];
    parts.push(utf8(`${String(n).padStart(6, '0')},`), ...name, utf8('\n'));
  }
  return Buffer.concat(parts);
}

describe('encoding decided on evidence, per record where it matters', () => {
  it.each([
    ['in the first 64 KiB', 200, 151],
    ['after the first 64 KiB', 2000, 1499],
  ])(
    'reads a UTF-8 export with one invalid byte %s as UTF-8 and rejects only that record',
    async (_where, rows, badRow) => {
      const bytes = productExport(rows, badRow);
      const { records, errors, meta } = await readBytes(csvConnector, bytes);
      expect(meta).toMatchObject({ encoding: 'utf-8', encodingSource: 'detected' });
      expect(records).toHaveLength(rows - 1);
      for (const r of records) expect(r.fields.name).toMatch(/^Crème brûlée café \d+$/);
      expect(records[0]!.fields).toEqual({ sku: '000001', name: 'Crème brûlée café 1' });
      expect(errors).toEqual([
        {
          file: 'input.test',
          line: badRow + 1,
          field: 'name',
          message: expect.stringMatching(
            /holds the byte 0xFF at character 7, which is not valid UTF-8/,
          ),
        },
      ]);
    },
  );

  it('shows the evidence it decided on', async () => {
    const { meta } = await readBytes(csvConnector, productExport(200, 151));
    expect(meta.encodingEvidence).toEqual({ multiByte: expect.any(Number), invalid: 1 });
    expect((meta.encodingEvidence as { multiByte: number }).multiByte).toBeGreaterThan(100);
  });

  it('reads Windows-1252 whose first accent comes after 5 MiB of ASCII', async () => {
    const row = 'plain ascii text of a product row\r\n';
    const ascii = row.repeat(Math.ceil((5 * 1024 * 1024) / row.length));
    const bytes = Buffer.concat([
      cp1252(`text\r\n${ascii}`),
      cp1252('Crème brûlée\r\nSmørbrød\r\n'),
    ]);
    const { records, errors, meta } = await readBytes(csvConnector, bytes);
    expect(errors).toEqual([]);
    expect(meta.encoding).toBe('windows-1252');
    expect(records.slice(-2).map((r) => r.fields.text)).toEqual(['Crème brûlée', 'Smørbrød']);
  });

  it('with encoding utf-8 given, makes invalid bytes record errors instead of refusing the file', async () => {
    const bytes = Buffer.concat([utf8('a;b\n1;ø\n2;'), Buffer.from([0xc3, 0x28]), utf8('\n3;å\n')]);
    const { records, errors } = await readBytes(csvConnector, bytes, { encoding: 'utf-8' });
    expect(lines(records)).toEqual([
      [2, { a: '1', b: 'ø' }],
      [4, { a: '3', b: 'å' }],
    ]);
    expect(errors).toEqual([
      expect.objectContaining({ line: 3, field: 'b', message: expect.stringMatching(/byte 0xC3/) }),
    ]);
  });

  it('keeps real characters whose UTF-16 form looks like an escaped byte (emoji)', async () => {
    const { records, errors } = await readBytes(csvConnector, 'a,b\n1,💀 ok\n');
    expect(errors).toEqual([]);
    expect(records[0]!.fields.b).toBe('💀 ok');
  });

  it('rejects the NDJSON record holding an invalid byte and reads the others', async () => {
    const bytes = Buffer.concat([
      utf8('{"sku":"1","name":"Blåbær"}\n{"sku":"2","name":"x'),
      Buffer.from([0xfe]),
      utf8('"}\n{"sku":"3","name":"Rødgrød"}\n'),
    ]);
    const { records, errors } = await readBytes(jsonConnector, bytes);
    expect(records.map((r) => r.fields.name)).toEqual(['Blåbær', 'Rødgrød']);
    expect(errors).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringMatching(/byte 0xFE/) }),
    ]);
  });
});

describe('NUL and control bytes', () => {
  it('rejects the record holding a NUL (file:line:field and character) and reads the rest', async () => {
    const rows = Array.from({ length: 112 }, (_v, i) => `${i + 1};Product ${i + 1};ok\n`);
    rows[40] = `41;Broken\u0000name;ok\n`;
    const { records, errors } = await readBytes(csvConnector, `sku;name;state\n${rows.join('')}`);
    expect(records).toHaveLength(111);
    expect(errors).toEqual([
      {
        file: 'input.test',
        line: 42,
        field: 'name',
        message: expect.stringMatching(/NUL byte \(0x00\) at character 7/),
      },
    ]);
  });

  it.each([
    [
      'UTF-16 without a byte-order mark',
      Buffer.from('sku;name\r\n1;abc\r\n', 'utf16le'),
      /UTF-16LE text without a byte-order mark.*encoding=utf-16le/,
    ],
    ['a PDF', Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj', 'latin1'), /is a PDF document, not text/],
    [
      'mostly control bytes',
      Buffer.from(Array.from({ length: 400 }, (_v, i) => i % 7)),
      /binary data, not text: \d+% of its first 400 bytes are control bytes/,
    ],
  ])('refuses a file whose head is not text: %s, saying which', async (_kind, bytes, message) => {
    const error = await readBytes(csvConnector, bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as Error).message).toMatch(/^input\.test /);
    expect((error as Error).message).toMatch(message);
  });
});

describe('line ends', () => {
  it('reads CR-only line ends (with their line numbers)', async () => {
    const { records, errors } = await readBytes(csvConnector, 'id;name\r1;a\r2;b\r\r3;c\r');
    expect(errors).toEqual([]);
    expect(lines(records)).toEqual([
      [2, { id: '1', name: 'a' }],
      [3, { id: '2', name: 'b' }],
      [5, { id: '3', name: 'c' }],
    ]);
  });

  it('reads mixed line ends and a lone CR inside quotes, across every chunk boundary', async () => {
    const text = 'id,note\r\n1,"two\rlines"\n2,plain\r3,"crlf\r\ninside"\r\n4,last';
    const expected = [
      [2, { id: '1', note: 'two\rlines' }],
      [4, { id: '2', note: 'plain' }],
      [5, { id: '3', note: 'crlf\r\ninside' }],
      [7, { id: '4', note: 'last' }],
    ];
    for (const size of [1, 2, 3, 5, 64]) {
      const { records, errors } = await readBytes(csvConnector, text, {}, size);
      expect(errors).toEqual([]);
      expect(lines(records)).toEqual(expected);
    }
  });

  it('skips lines before the header in a CR-only file', async () => {
    const { records, meta } = await readBytes(csvConnector, 'Export of today\rid;x\r1;2\r', {
      skipLines: 1,
    });
    expect(meta.header).toEqual(['id', 'x']);
    expect(lines(records)).toEqual([[3, { id: '1', x: '2' }]]);
  });
});

describe('forgiving where nothing is lost, strict where something would be', () => {
  const header = Array.from({ length: 21 }, (_v, i) => `c${i + 1}`).join(';');
  const row = (n: number): string =>
    Array.from({ length: 21 }, (_v, i) => `${n}.${i + 1}`).join(';');

  it('ignores a trailing delimiter (an extra field that is empty) on every row', async () => {
    const body = Array.from({ length: 16 }, (_v, n) => `${row(n)};\n`).join('');
    const { records, errors } = await readBytes(csvConnector, `${header}\n${body}`);
    expect(errors).toEqual([]);
    expect(records).toHaveLength(16);
    expect(records[3]!.fields.c21).toBe('3.21');
  });

  it('still rejects a record whose extra field holds a value', async () => {
    const { records, errors } = await readBytes(
      csvConnector,
      `${header}\n${row(1)};\n${row(2)};oops\n`,
    );
    expect(records).toHaveLength(1);
    expect(errors).toEqual([
      expect.objectContaining({
        line: 3,
        message: expect.stringMatching(
          /22 fields where the header has 21, and a field past the last column holds a value/,
        ),
      }),
    ]);
  });

  it('rejects short records by default, naming the option that accepts them', async () => {
    const text = 'a;b;c\n1;2;3\n4;5\n6;7;8\n';
    const { records, errors } = await readBytes(csvConnector, text);
    expect(records.map((r) => r.source.line)).toEqual([2, 4]);
    expect(errors).toEqual([
      expect.objectContaining({
        line: 3,
        message: expect.stringMatching(/2 fields where the header has 3.*shortRecords=pad/),
      }),
    ]);
  });

  it('pads short records with shortRecords=pad', async () => {
    const text = 'a;b;c\n1;2;3\n4;5\n6\n';
    const { records, errors } = await readBytes(csvConnector, text, { shortRecords: 'pad' });
    expect(errors).toEqual([]);
    expect(lines(records)).toEqual([
      [2, { a: '1', b: '2', c: '3' }],
      [3, { a: '4', b: '5', c: '' }],
      [4, { a: '6', b: '', c: '' }],
    ]);
  });

  it('ignores header columns without a name, lists them, and rejects a value under one', async () => {
    const text = 'id,name,,,,,,\n1,Ann,,,,,,\n2,Bob\n3,Cy,,x,,,,\n';
    const { records, errors, meta } = await readBytes(csvConnector, text);
    expect(meta.header).toEqual(['id', 'name']);
    expect(meta.ignoredColumns).toEqual([3, 4, 5, 6, 7, 8]);
    expect(lines(records)).toEqual([
      [2, { id: '1', name: 'Ann' }],
      [3, { id: '2', name: 'Bob' }],
    ]);
    expect(errors).toEqual([
      expect.objectContaining({
        line: 4,
        message: expect.stringMatching(/field 4 holds a value but its column has no name/),
      }),
    ]);
  });

  it('still refuses two columns with the same non-empty name', async () => {
    await expect(readBytes(csvConnector, 'a,,b,a\n1,,2,3\n')).rejects.toThrow(
      /names two columns "a" \(columns 1 and 4\)/,
    );
  });
});

describe('an input that gives no record is never a silent success', () => {
  const tmp = tempDir();
  afterAll(() => tmp.remove());

  it.each([
    [
      'an empty file',
      '',
      /empty\.csv holds no records, which would read as a catalog with nothing in it/,
    ],
    ['a header alone', 'sku;name\r\n', /empty\.csv holds no records \(a header alone\)/],
  ])('refuses %s with FERRY_NO_RECORDS naming the file', async (_kind, text, message) => {
    const file = join(tmp.dir, 'empty.csv');
    writeFileSync(file, text);
    const error = await collect(readSource({ file }).items).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('FERRY_NO_RECORDS');
    expect((error as Error).message).toMatch(message);
  });

  it('reads it as no records when the caller allows an empty input (a quiet change feed)', async () => {
    const file = join(tmp.dir, 'changes.csv');
    writeFileSync(file, 'sku;change\r\n');
    const { records, errors } = await collect(
      readSource({ file }, undefined, {}, { emptyInput: 'allow' }).items,
    );
    expect([records, errors]).toEqual([[], []]);
  });
});
