/**
 * What an export writes, without Redis or the platform: items -> rows (paths, exploded lines,
 * types) -> CSV in the ERP's dialect (Windows-1252, ';', decimal comma, dates in the target's
 * zone), JSON, NDJSON and XLSX, each read back by Ferry's own connectors; file names, dates and
 * cursor order.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSource } from '../../connectors/read-source.js';
import { compareCursor } from '../../src/export/cursor.js';
import { fileNameOf } from '../../src/export/file-name.js';
import { rowWriterFor } from '../../src/export/formats/index.js';
import { textEncoder } from '../../src/export/formats/text-encoder.js';
import { RowProblem, rowBuilder, rowReader } from '../../src/export/item-rows.js';
import { compileDateWriter } from '../../src/pipeline/convert/format-date.js';
import { compileExport } from '../../src/pipeline/definition/compile-export.js';
import { exportPipelineSchema } from '../../src/pipeline/definition/export-schema.js';
import type { ExportDefinition } from '../../src/pipeline/definition/export-types.js';
import { collect } from '../connectors/helpers/read.js';
import { testConfig } from '../pipeline/helpers.js';
import { tempDir } from '../queue/delivery-fixtures.js';

const dir = tempDir('export-files');
afterAll(() => dir.remove());

const ORDERS = [
  {
    id: '0000000007',
    externalId: 'ORD-0000000007',
    createdAt: '2024-03-31T22:30:00.000Z', // 1 April 00:30 in Oslo (summer time from 31 March)
    storeExternalId: 'S001',
    customer: { name: 'Åse Ødegård; "Bø"', email: 'ase@example.com' },
    status: 'paid',
    gift: false,
    currency: 'NOK',
    lines: [
      { productExternalId: '10417', quantity: 2, unitPrice: '1149.00', lineTotal: '2298.00' },
      { productExternalId: '00042', quantity: 1, unitPrice: '0.50', lineTotal: '0.50' },
    ],
  },
  {
    id: '0000000012',
    externalId: 'ORD-0000000012',
    createdAt: '2024-01-15T08:00:00.000Z',
    storeExternalId: 'S002',
    customer: { name: 'Grüße – 50 %', email: 'g@example.com' },
    status: 'placed',
    gift: true,
    currency: 'NOK',
    lines: [{ productExternalId: '10001', quantity: 3, unitPrice: '-12.50', lineTotal: '-37.50' }],
  },
];

function definition(target: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const parsed = exportPipelineSchema.parse({
    direction: 'export',
    read: { operation: 'orders.get', cursor: { field: 'id' } },
    explode: 'lines',
    fields: {
      orderId: 'id',
      orderDate: { column: 'createdAt', type: 'date' },
      orderTime: { column: 'createdAt', type: 'datetime' },
      customer: 'customer.name',
      gift: { column: 'gift', type: 'boolean' },
      line: { column: 'lines.#', type: 'integer' },
      productNo: 'lines.productExternalId',
      quantity: { column: 'lines.quantity', type: 'integer' },
      unitPrice: { column: 'lines.unitPrice', type: 'decimal', scale: 2 },
      note: { column: 'note', default: '' },
      phone: 'customer.phone',
    },
    target: { folder: dir.path, file: 'orders.csv', ...target },
    ...extra,
  });
  return compileExport('orders-test', 'orders-test.yaml', parsed, testConfig);
}

function bytesOf(def: ExportDefinition, items: readonly unknown[]): Buffer {
  const writer = rowWriterFor(
    def.target,
    def.fields.map((f) => f.name),
  );
  const build = rowBuilder(def);
  const parts = [writer.start()];
  for (const item of items) {
    for (const fields of rowReader(def)(item)) parts.push(writer.row(build(fields)));
  }
  parts.push(writer.end());
  return Buffer.concat(parts);
}

async function readBack(
  name: string,
  bytes: Buffer,
  connector: string,
  options: Record<string, unknown> = {},
) {
  const file = join(dir.path, name);
  writeFileSync(file, bytes);
  return await collect(readSource({ file }, connector, options).items);
}

const ERP_CSV = {
  format: 'csv',
  csv: { delimiter: ';', encoding: 'windows-1252' },
  decimalSeparator: ',',
  dateFormat: 'dd.mm.yyyy',
  dateTimeFormat: 'dd.mm.yyyy hh:mm',
  timeZone: 'Europe/Oslo',
  booleans: ['J', 'N'],
};

describe('export rows and formats', () => {
  it('writes an ERP-style CSV that Ferry reads back as the items held', async () => {
    const bytes = bytesOf(definition(ERP_CSV), ORDERS);
    expect(bytes.includes(Buffer.from('Åse', 'utf8'))).toBe(false); // not UTF-8...
    expect(bytes.includes(Buffer.from([0xc5, 0x73, 0x65]))).toBe(true); // ...but Windows-1252
    const { records, errors } = await readBack('erp.csv', bytes, 'csv', {
      delimiter: ';',
      encoding: 'windows-1252',
    });
    expect(errors).toEqual([]);
    expect(records.map((r) => r.fields)).toEqual([
      {
        orderId: '0000000007',
        orderDate: '01.04.2024',
        orderTime: '01.04.2024 00:30',
        customer: 'Åse Ødegård; "Bø"',
        gift: 'N',
        line: '1',
        productNo: '10417',
        quantity: '2',
        unitPrice: '1149,00',
        note: '',
        phone: '',
      },
      {
        orderId: '0000000007',
        orderDate: '01.04.2024',
        orderTime: '01.04.2024 00:30',
        customer: 'Åse Ødegård; "Bø"',
        gift: 'N',
        line: '2',
        productNo: '00042',
        quantity: '1',
        unitPrice: '0,50',
        note: '',
        phone: '',
      },
      {
        orderId: '0000000012',
        orderDate: '15.01.2024',
        orderTime: '15.01.2024 09:00',
        customer: 'Grüße – 50 %',
        gift: 'J',
        line: '1',
        productNo: '10001',
        quantity: '3',
        unitPrice: '-12,50', // no formula guard: an ERP reads the amount
        note: '',
        phone: '',
      },
    ]);
    expect(bytes.toString('latin1')).toContain('\r\n');
  });

  it('writes Windows-1252 from its table, 0x80-0x9F included', () => {
    const encode = textEncoder('windows-1252', false);
    expect(encode('€‚Ÿ–Å')).toEqual({ bytes: Buffer.from([0x80, 0x82, 0x9f, 0x96, 0xc5]) });
    expect(encode('a\u0081')).toEqual({ unmappable: '\u0081' });
  });

  it('names the item and field of a character Windows-1252 lacks, or writes ? when told', () => {
    const item = { ...ORDERS[1], customer: { name: 'Emoji 🚲' } };
    let problem: unknown;
    try {
      bytesOf(definition(ERP_CSV), [item]);
    } catch (error) {
      problem = error;
    }
    expect(problem).toBeInstanceOf(RowProblem);
    expect(problem).toMatchObject({ field: 'customer' });
    expect((problem as Error).message).toMatch(/U\+1F6B2.*windows-1252.*replace/);
    const replaced = bytesOf(
      definition({ ...ERP_CSV, csv: { ...ERP_CSV.csv, unmappable: 'replace' } }),
      [item],
    );
    expect(replaced.toString('latin1')).toContain('Emoji ?;');
  });

  it('rejects an item whose field does not map, naming the path', () => {
    const def = definition(ERP_CSV);
    const [fields] = rowReader(def)({ ...ORDERS[0], lines: [{ unitPrice: '12,5' }] });
    expect(() => rowBuilder(def)(fields!)).toThrow(RowProblem);
    try {
      rowBuilder(def)(fields!);
    } catch (error) {
      expect(error).toMatchObject({ field: 'lines.unitPrice' });
    }
  });

  it('reads only the paths the fields name, or every path where custom code may read any', () => {
    const def = definition(ERP_CSV);
    expect(def.paths).toContain('lines.unitPrice');
    const some = rowReader(def)(ORDERS[0]);
    const every = rowReader({ explode: 'lines', paths: undefined })(ORDERS[0]);
    expect(every).toHaveLength(2);
    expect(every[1]).toMatchObject({
      id: '0000000007',
      'customer.email': 'ase@example.com',
      'lines.#': '2',
      'lines.productExternalId': '00042',
      gift: 'false',
    });
    for (const [i, row] of some.entries()) {
      for (const [path, text] of Object.entries(row)) expect(every[i]![path]).toBe(text);
    }
    expect(rowReader(def)({ ...ORDERS[0], lines: [] })).toEqual([]);
  });

  it('writes JSON and NDJSON with typed values, decimals as strings', async () => {
    const json = JSON.parse(bytesOf(definition({ format: 'json' }), ORDERS).toString('utf8'));
    expect(json).toHaveLength(3);
    expect(json[2]).toEqual({
      orderId: '0000000012',
      orderDate: '2024-01-15',
      orderTime: '2024-01-15T08:00:00',
      customer: 'Grüße – 50 %',
      gift: true,
      line: 1,
      productNo: '10001',
      quantity: 3,
      unitPrice: '-12.50',
      note: '',
      phone: null,
    });
    expect(JSON.parse(bytesOf(definition({ format: 'json' }), []).toString('utf8'))).toEqual([]);
    const ndjson = bytesOf(definition({ format: 'ndjson' }), ORDERS).toString('utf8');
    const lines = ndjson.trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(json);
    const { records } = await readBack('orders.ndjson', Buffer.from(ndjson), 'json');
    expect(records).toHaveLength(3);
  });

  it('writes an XLSX workbook that Ferry reads back, the same bytes each time', async () => {
    const def = definition({ format: 'xlsx', dateFormat: 'dd.mm.yyyy', timeZone: 'Europe/Oslo' });
    const many = Array.from({ length: 700 }, (_, i) => ({
      ...ORDERS[1],
      id: String(100 + i).padStart(10, '0'),
    }));
    const bytes = bytesOf(def, [...ORDERS, ...many]);
    expect(bytesOf(def, [...ORDERS, ...many]).equals(bytes)).toBe(true);
    const { records, errors } = await readBack('orders.xlsx', bytes, 'xlsx');
    expect(errors).toEqual([]);
    expect(records).toHaveLength(3 + 700);
    expect(records[0]!.fields).toMatchObject({
      orderId: '0000000007',
      orderDate: '01.04.2024',
      customer: 'Åse Ødegård; "Bø"',
      quantity: '2',
      unitPrice: '1149',
    });
    expect(records[702]!.fields.orderId).toBe('0000000799');
  });
});

describe('file names, dates and cursors', () => {
  const at = Date.UTC(2024, 11, 31, 23, 30, 5); // 1 January 2025, 00:30:05 in Oslo

  it('fills the pattern with the run date in the target zone, the number and the range', () => {
    const parts = definition({
      ...ERP_CSV,
      file: '{pipeline}-{date}-{date:yyyymmdd}T{time}-{seq:6}-{from}_{to}.csv',
    }).target.fileParts;
    const name = fileNameOf(parts, {
      now: at,
      timeZone: 'Europe/Oslo',
      seq: 42,
      from: '2024-12-31T23:00:00Z',
      to: 'Z/9',
      pipeline: 'orders',
      runId: 'r1',
    });
    expect(name).toBe('orders-2025-01-01-20250101T003005-000042-2024-12-31T23-00-00Z_Z-9.csv');
  });

  it('writes an ISO value with a zone in the target zone, one without as it is', () => {
    const write = compileDateWriter('dd.mm.yy hh:mm:ss', 'America/New_York');
    expect(write('2024-07-01T03:04:05Z')).toEqual({ value: '30.06.24 23:04:05' });
    expect(write('2024-07-01T03:04:05+02:00')).toEqual({ value: '30.06.24 21:04:05' });
    expect(write('2024-07-01')).toEqual({ value: '01.07.24 00:00:00' });
    expect(write('1.7.2024')).toHaveProperty('error');
    expect(() => compileDateWriter('dd.mm.yyyy', 'Mars/Olympus')).toThrow(/IANA/);
    expect(() => compileDateWriter('dd.qq.yyyy', 'UTC')).toThrow(/unknown token/);
  });

  it('orders cursor values of digits as numbers, others by their characters', () => {
    expect(compareCursor('9', '10')).toBeLessThan(0);
    expect(compareCursor('0000000010', '9')).toBeGreaterThan(0);
    expect(compareCursor('007', '7')).toBe(0);
    expect(compareCursor('Z-2024-01-05-S002', 'Z-2024-01-05-S001')).toBeGreaterThan(0);
    expect(compareCursor('2024-01-05T10:00:00Z', '2024-01-05')).toBeGreaterThan(0);
  });
});
