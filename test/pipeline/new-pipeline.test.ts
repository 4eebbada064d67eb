/**
 * `ferry pipeline new` drafts from a profile of the sample matched to the described properties
 * (issue 33.8). On a Business-Central-style item export and a vendor's description (listing B,
 * allOf, prices as integer minor units), where the old draft keyed categories on the product
 * number, gave `Description` to both name and description, a category's sort to a product's
 * sortIndex and never looked inside the prices array.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { assignBest } from '../../src/pipeline/contract/assign-best.js';
import { profileSample } from '../../src/pipeline/contract/sample-profile.js';
import { configOnlyEnv, ferryHere } from '../helpers/ferry-here.js';
import { deleteKeys } from '../helpers/redis.js';
import { tempDir, vendorConfigFile } from './helpers.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const ROWS = [
  '20000;Ski boots;Size 42;Alpina;SKI;Skiing;;0;1 273,00;NOK;No;7000000000000;;01.01.2026',
  '20001;Rain jacket;;Norrøna;REG;Rain wear;JAK;2;899,50;NOK;No;7000000000001;;02.01.2026',
  '20002;Shell jacket;Size M;Norrøna;JAK;Jackets;;1;2 499,00;EUR;Yes;7000000000002;;03.01.2026',
  '20003;Wax;;Swix;SKI;Skiing;;0;89,90;SEK;No;;;04.01.2026',
];

describe('profileSample', () => {
  it('tells what each column holds', () => {
    const [header, ...rows] = [HEADER, ...ROWS].map((l) => l.split(';'));
    const records = rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])));
    const byName = new Map(profileSample(records).map((p) => [p.name, p]));
    expect(byName.get('No.')).toMatchObject({ kind: 'integer', rows: 4, filled: 4, distinct: 4 });
    expect(byName.get('Item Category Code')).toMatchObject({ kind: 'text', distinct: 3 });
    expect(byName.get('Unit Price')).toMatchObject({
      kind: 'decimal',
      decimalSeparator: ',',
      maxDecimals: 2,
      values: ['1273.00', '899.50', '2499.00', '89.90'],
    });
    expect(byName.get('Currency')).toMatchObject({ kind: 'currency', distinct: 3 });
    expect(byName.get('Blocked')).toMatchObject({ kind: 'boolean' });
    expect(byName.get('Last Date Modified')).toMatchObject({
      kind: 'date',
      dateFormat: 'dd.mm.yyyy',
    });
    expect(byName.get('Web Handle')).toMatchObject({ kind: 'empty', filled: 0 });
    expect(byName.get('Description')?.maxLength).toBe(12);
  });
});

describe('assignBest', () => {
  it('takes the best total, one column per row, and leaves a row out rather than force it', () => {
    // name: Description 70, Description 2 0; description: Description 95, Description 2 70.
    expect(
      assignBest([
        [70, 0],
        [95, 70],
      ]),
    ).toEqual([0, 1]);
    expect(
      assignBest([
        [0, 0],
        [10, 0],
        [20, 5],
      ]),
    ).toEqual([undefined, undefined, 0]); // 20 beats 10 + 5
  });
});

describe('ferry pipeline new on an item export and a vendor description', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const pipelines = join(dir.path, 'pipelines');
  mkdirSync(pipelines);
  const sample = dir.file('items.csv', [HEADER, ...ROWS].join('\n') + '\n');
  const { file: config, prefix } = vendorConfigFile(dir.path, pipelines, 'pipeline-new');
  afterAll(() => deleteKeys(prefix));
  const ferry = (args: string[]) => ferryHere(args, { env: configOnlyEnv(config) });

  async function draft(name: string, operation: string) {
    const made = await ferry([
      'pipeline',
      'new',
      name,
      '--operation',
      operation,
      '--sample',
      sample,
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const out = JSON.parse(made.stdout) as {
      file: string;
      matched: { property: string; column: string }[];
      todo: string[];
      unmapped: string[];
    };
    const text = readFileSync(out.file, 'utf8');
    const entity = (parse(text) as { entities: Record<string, unknown>[] }).entities[0]!;
    return { ...out, text, entity };
  }

  it('keys categories on their own code, first row wins, fields from the category columns only', async () => {
    const d = await draft('categories', 'categories.put');
    expect(d.entity).toEqual({
      name: 'categories',
      operations: { upsert: 'categories.put' },
      duplicates: 'first',
      key: 'Item Category Code',
      fields: {
        name: 'Item Category Name',
        parentExternalId: 'Parent Category Code',
        sortIndex: { column: 'Category Sort', type: 'integer' },
      },
    });
    expect(d.text).not.toContain('"No."');
    expect(d.todo).toEqual([]);
    const plan = await ferry(['plan', 'categories', '--file', sample, '--json']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({
      operations: { 'categories.put': { items: 3 } },
      errors: [],
    });
  });

  it('gives each product property its own column, never the category sort, and a TODO where nothing fits', async () => {
    const d = await draft('products', 'products.put');
    expect(d.entity).toEqual({
      name: 'products',
      operations: { upsert: 'products.put' },
      key: 'No.',
      fields: {
        name: 'Description',
        description: 'Description 2',
        vendor: 'Vendor Name',
        gtin: 'GTIN',
        active: { column: 'Blocked', type: 'boolean', negate: true },
        categoryExternalIds: { array: [{ column: 'Item Category Code' }] },
      },
    });
    expect(d.todo).toEqual(['handle']);
    expect(d.text).toContain(
      '# TODO: required "handle" (string: "Web Handle" is empty throughout the sample)',
    );
    expect(d.unmapped).toContain('sortIndex'); // "Category Sort" is the category's
    const columns = d.matched.map((m) => m.column);
    expect(new Set(columns).size).toBe(columns.length);
  });

  it('looks inside the prices array: integer amounts in minor units of the currency column', async () => {
    const d = await draft('prices', 'products.prices.patch');
    expect(d.entity).toEqual({
      name: 'prices',
      operations: { upsert: 'products.prices.patch' },
      key: 'No.',
      fields: {
        prices: {
          array: [
            {
              object: {
                amountMinor: {
                  column: 'Unit Price',
                  type: 'decimal',
                  decimalSeparator: ',',
                  minorUnits: { column: 'Currency' },
                },
                currency: 'Currency',
              },
            },
          ],
        },
      },
    });
    expect(d.matched).toContainEqual({ property: 'prices[].amountMinor', column: 'Unit Price' });
    expect(d.unmapped).toEqual(['prices[].compareAtMinor']);
    const plan = await ferry(['plan', 'prices', '--file', sample, '--json', '--show-items']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const items = (JSON.parse(plan.stdout) as { items: { payload: unknown }[] }).items;
    expect(items.map((i) => i.payload)).toContainEqual({
      prices: [{ amountMinor: 127_300, currency: 'NOK' }],
    });
  });
});
