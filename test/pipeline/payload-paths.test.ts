/**
 * Keys that name a payload field must name one the mapping builds (docs/PIPELINES.md, Paths in the
 * config). Issue 33: after the price mapping switched to amountMinor, `guards.valueChange:
 * prices.0.amount` watched nothing ("0 of 42") while 21 prices moved 100 times. Now the pipeline
 * does not load: config check, interface check, plan and run exit 2 naming the key, the fields
 * that exist and the closest one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { configOnlyEnv, ferryHere } from '../helpers/ferry-here.js';
import { deleteKeys } from '../helpers/redis.js';
import { definitionOf, tempDir, vendorConfigFile } from './helpers.js';

const PRICE_FIELDS = {
  prices: {
    array: [
      {
        object: {
          amountMinor: { column: 'Price', type: 'decimal', minorUnits: { column: 'Currency' } },
          currency: 'Currency',
        },
      },
    ],
  },
};

const PRODUCT_FIELDS = {
  name: 'Description',
  description: 'Description 2',
  handle: { template: 'p-{No.}' },
  active: { value: true },
  categoryExternalIds: { column: 'Cats', split: '|', default: [] },
  vendor: { compute: 'anything' },
};

function pipeline(guards: Record<string, unknown>) {
  return {
    source: { connector: 'csv' },
    mode: 'snapshot',
    guards,
    entities: [
      {
        name: 'product',
        operations: { upsert: 'products.put' },
        key: 'No.',
        schema: 'none',
        fields: { ...PRODUCT_FIELDS, vendor: { value: 'ACME' } },
      },
      {
        name: 'price',
        operations: { upsert: 'products.prices.patch' },
        key: 'No.',
        schema: 'none',
        fields: PRICE_FIELDS,
      },
    ],
  };
}

const load = (guards: Record<string, unknown>) => () => definitionOf('p', pipeline(guards));

const FIELDS =
  '(fields: active, categoryExternalIds.0, description, externalId, handle, name, prices.0.amountMinor, prices.0.currency, vendor)';

describe('a guard names a field the mapping builds', () => {
  it('accepts fields of either entity: nested, indexed into a split list, the key field', () => {
    expect(
      load({
        changedShare: { field: 'prices.0.amountMinor', max: 0.2 },
        valueChange: { field: 'prices.0.amountMinor', maxFactor: 10 },
        emptied: {
          fields: ['description', 'categoryExternalIds.3', 'externalId', 'prices'],
          max: 0.5,
        },
      }),
    ).not.toThrow();
  });

  it('refuses each kind of key that names nothing, with the fields that exist', () => {
    expect(load({ valueChange: { field: 'prices.0.amount', maxFactor: 10 } })).toThrow(
      `guards.valueChange.field: "prices.0.amount" is not a field the mapping builds, so nothing would be watched ${FIELDS}. Did you mean "prices.0.amountMinor"?`,
    );
    expect(load({ changedShare: { field: 'prices.1.amountMinor', max: 0.2 } })).toThrow(
      /guards\.changedShare\.field: "prices\.1\.amountMinor" is not a field/,
    );
    expect(load({ emptied: { fields: ['description', 'descripton'], max: 0.5 } })).toThrow(
      /guards\.emptied\.fields\.1: "descripton" .* Did you mean "description"\?/,
    );
    // Past a scalar: name is text, it has no parts.
    expect(load({ emptied: { fields: ['name.first'], max: 0.5 } })).toThrow(
      /guards\.emptied\.fields\.0: "name\.first"/,
    );
  });

  it('lets custom code build any shape under its field', () => {
    const computed = () =>
      definitionOf('p', {
        ...pipeline({ valueChange: { field: 'vendor.rank.0', maxFactor: 10 } }),
        entities: [
          {
            operations: { upsert: 'products.put' },
            key: 'No.',
            schema: 'none',
            fields: { vendor: { compute: 'lowestPrices' } },
          },
        ],
      });
    // An unknown computed field is its own problem; the guard's path is not one.
    expect(computed).toThrow(/entities\.0\.fields\.vendor\.compute/);
    expect(computed).not.toThrow(/guards\.valueChange/);
  });
});

describe('every command that loads the pipeline exits 2 on it', () => {
  const dir = tempDir();
  afterAll(() => dir.remove());
  const pipelines = join(dir.path, 'pipelines');
  mkdirSync(pipelines);
  writeFileSync(
    join(pipelines, 'catalog.yaml'),
    stringify(pipeline({ valueChange: { field: 'prices.0.amount', maxFactor: 10 } })),
  );
  const sample = join(dir.path, 'items.csv');
  writeFileSync(sample, 'No.,Description,Price,Currency\n1,Bike,10.00,NOK\n');
  const { file: config, prefix } = vendorConfigFile(dir.path, pipelines, 'payload-paths');
  afterAll(() => deleteKeys(prefix));
  const ferry = (args: string[]) => ferryHere(args, { env: configOnlyEnv(config) });
  const named =
    /guards\.valueChange\.field: "prices\.0\.amount" is not a field the mapping builds.*Did you mean "prices\.0\.amountMinor"\?/;

  it.each([
    ['config check', ['config', 'check']],
    ['plan', ['plan', 'catalog', '--file', sample]],
    ['run', ['run', 'catalog', '--file', sample]],
  ])('%s', async (_label, args) => {
    const result = await ferry(args);
    expect(result.code, result.stdout).toBe(2);
    expect(result.stderr).toMatch(named);
    expect(result.stderr).toContain('catalog.yaml');
  });

  it('interface check', async () => {
    const result = await ferry(['interface', 'check', '--json']);
    expect(result.code, result.stderr).toBe(2);
    const problems = (
      JSON.parse(result.stdout) as { problems: { code: string; message: string }[] }
    ).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'PIPELINE_INVALID', pipeline: 'catalog' });
    expect(problems[0]!.message).toMatch(named);
  });
});
