/**
 * Every file of shared/fixtures/erp, through its sample pipeline, gives exactly what
 * expected.json says: rows, the lines of rejected records, items per operation, sample values.
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { sharedPath } from '../helpers/shared.js';
import { planItems, testConfig } from './helpers.js';

interface Expected {
  rows: number;
  valid?: number;
  errors: number[];
  operations: Record<string, number>;
  samples?: Record<
    string,
    { amount: string; currency: string; active: boolean; gtin: string; name: string }
  >;
}

const expected = JSON.parse(
  readFileSync(sharedPath('fixtures/erp/expected.json'), 'utf8'),
) as Record<string, Expected>;
const PIPELINES: Record<string, string> = {
  items: 'catalog',
  stores: 'stores',
  users: 'users',
  'item-changes': 'item-changes',
};

const prefix = uniquePrefix('fixtures');
let redis: Redis;
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

async function planFixture(file: string) {
  return planPipeline({
    definition: loadPipeline(PIPELINES[file] as string, testConfig),
    sourceOverride: { file: sharedPath('fixtures/erp', `${file}.csv`) },
    redis,
    prefix: `${prefix}-${file}`,
    config: testConfig,
  });
}

describe.each(Object.keys(PIPELINES))('fixture %s.csv', (file) => {
  const want = expected[file] as Expected;

  it('gives the rows, rejected lines and items per operation of expected.json', async () => {
    const plan = await planFixture(file);
    expect(plan.rows).toBe(want.rows);
    expect(plan.errors.map((e) => e.line)).toEqual(want.errors);
    if (want.valid !== undefined) expect(plan.rows - plan.errors.length).toBe(want.valid);
    const items = Object.fromEntries(
      Object.entries(plan.operations).map(([id, c]) => [id, c.items]),
    );
    expect(items).toEqual(want.operations);
    for (const e of plan.errors) {
      expect(e.file).toContain(`${file}.csv`);
      expect(e.field).toBeTruthy();
      expect(e.message).toContain(e.field as string);
    }
  });
});

describe('catalog payloads', () => {
  it('carry the sample values of expected.json', async () => {
    const samples = Object.entries((expected.items as Expected).samples ?? {});
    expect(samples.length).toBeGreaterThan(0);
    const items = planItems(await planFixture('items'));
    for (const [key, sample] of samples) {
      const product = items.find((i) => i.operationId === 'products.put' && i.key === key);
      const price = items.find((i) => i.operationId === 'products.prices.patch' && i.key === key);
      expect(product?.payload, `product ${key}`).toMatchObject({
        externalId: key,
        name: sample.name,
        gtin: sample.gtin,
        active: sample.active,
      });
      expect(price?.payload, `price ${key}`).toEqual({
        prices: [{ amount: sample.amount, currency: sample.currency }],
      });
    }
  });

  it('follow the format rules: handles, descriptions, categories and decimal strings', async () => {
    const items = planItems(await planFixture('items'));
    const product = (key: string) =>
      items.find((i) => i.operationId === 'products.put' && i.key === key)?.payload;
    const price = (key: string) =>
      items.find((i) => i.operationId === 'products.prices.patch' && i.key === key)?.payload;
    // Web Handle given, or derived from the name and No.
    expect(product('10002')).toMatchObject({ handle: 'lett-stovler-10002' });
    expect(product('10000')).toMatchObject({ handle: 'tynn-voks-herre-10000', vendor: 'Norrøna' });
    expect(product('10000')).not.toHaveProperty('description');
    expect(product('10005')).toMatchObject({
      description: 'Størrelse M',
      categoryExternalIds: ['SMØ'],
    });
    expect(product('10010')).toMatchObject({ name: 'Ekstra staver 12" modell' });
    expect(product('10026')).toMatchObject({ name: 'Myk lue\nNy linje i beskrivelsen' });
    expect(price('074116')).toEqual({ prices: [{ amount: '2099.73', currency: 'NOK' }] });
    expect(price('007728')).toEqual({ prices: [{ amount: '4588.75', currency: 'SEK' }] });
    expect(price('10004')).toEqual({ prices: [{ amount: '1273.00', currency: 'NOK' }] });
    // The repeated 010256 is rejected; the first one stays.
    expect(price('010256')).toEqual({ prices: [{ amount: '3998.31', currency: 'NOK' }] });
    const categories = items
      .filter((i) => i.operationId === 'categories.put')
      .map((i) => i.payload);
    expect(categories).toContainEqual({
      externalId: 'REG',
      name: 'Regntøy',
      parentExternalId: 'JAK',
      sortIndex: 21,
    });
    expect(categories).toContainEqual({ externalId: 'SKI', name: 'Ski & staver', sortIndex: 30 });
  });
});
