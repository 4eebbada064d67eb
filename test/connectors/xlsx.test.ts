import { readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ConnectorError } from '../../connectors/errors.js';
import { readSource } from '../../connectors/read-source.js';
import { numberText, serialToIso } from '../../connectors/xlsx/cell-value.js';
import { xlsxConnector } from '../../connectors/xlsx/index.js';
import { collect, lines, readBytes } from './helpers/read.js';
import { tempDir } from './helpers/tmp.js';
import { buildXlsx } from './helpers/xlsx-builder.js';
import { zip } from './helpers/zip-writer.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const ITEMS = buildXlsx([
  { name: 'Notes', rows: [['just notes']] },
  {
    name: 'Items',
    rows: [
      ['No.', ' Description ', 'Price', 'Modified', 'Stamp', 'Blocked', 'GTIN', 'Note'],
      [
        '10000',
        { rich: ['Tynn ', 'voks'] },
        { raw: '2867.7700000000004' },
        { date: 46067 },
        { dateTime: 46067.5 },
        false,
        '0657462735215',
        { inline: 'inline' },
      ],
      {
        r: 4,
        cells: [
          '10001',
          'Lett staver',
          1363,
          { date: 45658 },
          null,
          true,
          null,
          { formula: 'A4&"x"', value: '10001x' },
        ],
      },
      { r: 5, cells: [null, null, null] },
      { r: 6, cells: ['10002', 'Feil', { error: '#DIV/0!' }] },
      { r: 7, cells: ['10003', 'Sist', { raw: '0.30000000000000004' }] },
    ],
  },
]);

describe('xlsx connector', () => {
  it('reads the chosen sheet: header trimmed, strings resolved, numbers and dates as text, lines = rows', async () => {
    const { records, errors, meta } = await readBytes(xlsxConnector, ITEMS, { sheet: 'Items' });
    expect(meta).toMatchObject({ sheet: 'Items', sheets: ['Notes', 'Items'] });
    expect(meta.header).toEqual([
      'No.',
      'Description',
      'Price',
      'Modified',
      'Stamp',
      'Blocked',
      'GTIN',
      'Note',
    ]);
    expect(lines(records)).toEqual([
      [
        2,
        {
          'No.': '10000',
          Description: 'Tynn voks',
          Price: '2867.77',
          Modified: '2026-02-14',
          Stamp: '2026-02-14T12:00:00',
          Blocked: 'false',
          GTIN: '0657462735215',
          Note: 'inline',
        },
      ],
      [
        4,
        {
          'No.': '10001',
          Description: 'Lett staver',
          Price: '1363',
          Modified: '2025-01-01',
          Stamp: '',
          Blocked: 'true',
          GTIN: '',
          Note: '10001x',
        },
      ],
      [
        7,
        {
          'No.': '10003',
          Description: 'Sist',
          Price: '0.3',
          Modified: '',
          Stamp: '',
          Blocked: '',
          GTIN: '',
          Note: '',
        },
      ],
    ]);
    expect(errors).toEqual([
      {
        file: 'input.test',
        line: 6,
        field: 'Price',
        message: 'cell C6 holds the spreadsheet error #DIV/0!',
      },
    ]);
  });

  it('takes the first sheet by default and a sheet by its 1-based position', async () => {
    const first = await readBytes(xlsxConnector, ITEMS);
    expect(first.meta.sheet).toBe('Notes');
    expect(first.meta.header).toEqual(['just notes']);
    const second = await readBytes(xlsxConnector, ITEMS, { sheet: '2' });
    expect(second.meta.sheet).toBe('Items');
    expect(second.records).toHaveLength(3);
  });

  it('refuses a sheet it does not have, naming the ones it has', async () => {
    await expect(readBytes(xlsxConnector, ITEMS, { sheet: 'Prices' })).rejects.toThrow(
      /has no sheet "Prices": its sheets are "Notes", "Items" \(give a name, or a position from 1 to 2\)/,
    );
  });

  it('uses headerRow, and refuses a value in a column without a header', async () => {
    const book = buildXlsx([
      {
        name: 'S',
        rows: [['Report 2026'], [], ['id', null, 'name'], ['1', 'stray', 'x'], ['2', null, 'y']],
      },
    ]);
    const { records, errors, meta } = await readBytes(xlsxConnector, book, { headerRow: 3 });
    expect(meta.header).toEqual(['id', 'name']);
    expect(lines(records)).toEqual([[5, { id: '2', name: 'y' }]]);
    expect(errors).toEqual([
      expect.objectContaining({
        line: 4,
        message: 'cell B4 has a value but column B has no header',
      }),
    ]);
  });

  it('reads the 1904 date system', async () => {
    const book = buildXlsx([{ name: 'S', rows: [['d'], [{ date: 0 }], [{ date: 44605 }]] }], {
      date1904: true,
    });
    const { records } = await readBytes(xlsxConnector, book);
    expect(records.map((r) => r.fields.d)).toEqual(['1904-01-01', '2026-02-14']);
  });

  it('reads a workbook from a stream (stdin) through a temporary copy, removed afterwards', async () => {
    const spools = (): string[] =>
      readdirSync(tmpdir()).filter((n) => n.startsWith('ferry-spool-'));
    const before = spools();
    const { items, meta } = readSource(
      { stdin: true },
      'xlsx',
      { sheet: 'Items' },
      { stdin: Readable.from([ITEMS]) },
    );
    const { records } = await collect(items);
    expect(records.map((r) => r.fields['No.'])).toEqual(['10000', '10001', '10003']);
    expect(meta.connector).toBe('xlsx');
    expect(spools()).toEqual(before);
  });

  it('reads a workbook file in place, chosen by its extension', async () => {
    const path = join(tmp.dir, 'items.xlsx');
    writeFileSync(path, ITEMS);
    const { items, meta } = readSource({ file: path }, undefined, { sheet: 'Items' });
    const { records } = await collect(items);
    expect(records[0]!.source).toEqual({ file: path, line: 2 });
    expect(meta).toMatchObject({ connector: 'xlsx', connectorChosenBy: 'extension' });
  });

  it.each([
    [
      'a CSV file',
      Buffer.from('a,b\n1,2\n'),
      /input\.test is not an XLSX workbook \(it cannot be read as a zip archive/,
    ],
    [
      'a zip without a workbook',
      zip({ 'readme.txt': 'hello' }),
      /is a zip archive but not an XLSX workbook \(no xl\/workbook\.xml\)/,
    ],
  ])('refuses %s with a FERRY_CONNECTOR error', async (_kind, bytes, message) => {
    const error = await readBytes(xlsxConnector, bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as Error).message).toMatch(message);
  });
});

describe('xlsx cell values', () => {
  it.each([
    ['2867.7700000000004', '2867.77'],
    ['0.30000000000000004', '0.3'],
    ['1363', '1363'],
    ['-12.5', '-12.5'],
    ['1E-7', '0.0000001'],
    ['1.5E+21', '1500000000000000000000'],
    ['123456789012345678', '123456789012346000'],
  ])('shows the stored number %s as %s', (stored, shown) => {
    expect(numberText(stored)).toBe(shown);
  });

  it.each([
    [1, '1900-01-01'],
    [59, '1900-02-28'],
    [61, '1900-03-01'],
    [46067.25, '2026-02-14T06:00:00'],
    [0.75, '18:00:00'],
    [46067.99999999, '2026-02-15'],
  ])('shows the 1900-system serial %s as %s', (serial, iso) => {
    expect(serialToIso(serial, false)).toBe(iso);
  });
});
