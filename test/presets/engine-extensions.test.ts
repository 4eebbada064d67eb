/**
 * What the presets added to the pipeline engine: computed fields (`compute`, `when: {compute}`),
 * registered merges (`merge: lowestPerCurrency`), and grouped rows that stand or fall together
 * across the entities they give.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { pipelineSchema } from '../../src/pipeline/definition/pipeline-schema.js';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { definitionOf, tempDir, testConfig } from '../pipeline/helpers.js';
import { itemCounts, payloads } from './helpers.js';

const priceEntity = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  source: { connector: 'csv' },
  mode: 'snapshot',
  entities: [{ operations: { upsert: 'products.prices.patch' }, key: 'sku', fields, ...extra }],
});

function configIssues(file: unknown): { path: string; message: string }[] {
  try {
    definitionOf('ext', file);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('checked when the pipeline loads', () => {
  it('names a compute, a when.compute or a merge that nothing registered', () => {
    expect(configIssues(priceEntity({ prices: { compute: 'nope' } }))).toEqual([
      {
        path: 'entities.0.fields.prices.compute',
        message: expect.stringMatching(
          /^no computed field named "nope" \(registered: .*akeneoPrices/,
        ),
      },
    ]);
    expect(
      configIssues(
        priceEntity({ prices: { compute: 'akeneoPrices' } }, { when: { compute: 'nope' } }),
      ),
    ).toEqual([{ path: 'entities.0.when.compute', message: expect.stringContaining('"nope"') }]);
    expect(
      configIssues(priceEntity({ prices: { compute: 'akeneoPrices', merge: 'nope' } })),
    ).toEqual([
      {
        path: 'entities.0.fields.prices.merge',
        message: expect.stringMatching(
          /^expected one of first, last, append, unique, .*lowestPerCurrency.*, got "nope"$/,
        ),
      },
    ]);
  });

  it('refuses conversions on a computed field, and a when with both a column and a compute', () => {
    expect(
      configIssues(priceEntity({ prices: { compute: 'akeneoPrices', type: 'decimal' } })),
    ).toEqual([
      { path: 'entities.0.fields.prices.type', message: 'only a column or template takes this' },
    ]);
    const both = pipelineSchema.safeParse(
      priceEntity({}, { when: { column: 'sku', notEmpty: true, compute: 'akeneoPrices' } }),
    );
    expect(both.success).toBe(false);
    expect(both.error?.issues[0]?.message).toBe(
      'expected {column, and one of notEmpty, equals, in}, or {compute}',
    );
  });
});

describe('grouped rows', () => {
  const prefix = uniquePrefix('ext');
  const dir = tempDir();
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  afterAll(async () => {
    redis.disconnect();
    dir.remove();
    await deleteKeys(prefix);
  });

  it('merge with a registered merge and give nothing else when their group is rejected', async () => {
    const file = dir.file(
      'variants.csv',
      'Handle,Title,Price\nkeep,Kept,30.00\nkeep,,12.50\nkeep,,99\nlost,,5.00\nlost,,6.00\n',
    );
    const definition = definitionOf('ext', {
      source: { connector: 'csv' },
      mode: 'snapshot',
      entities: [
        {
          name: 'product',
          operations: { upsert: 'products.put' },
          key: 'Handle',
          duplicates: 'group',
          fields: {
            name: 'Title',
            vendor: { value: '' },
            handle: 'Handle',
            active: { value: true },
            categoryExternalIds: { value: [] },
          },
        },
        {
          name: 'price',
          operations: { upsert: 'products.prices.patch' },
          key: 'Handle',
          duplicates: 'group',
          fields: {
            prices: {
              merge: 'lowestPerCurrency',
              array: [
                {
                  object: {
                    amount: { column: 'Price', type: 'decimal', scale: 2 },
                    currency: { value: 'EUR' },
                  },
                },
              ],
            },
          },
        },
      ],
    });
    const plan = await planPipeline({
      definition,
      sourceOverride: { file },
      redis,
      prefix,
      config: testConfig,
    });
    expect(plan.errors).toEqual([
      expect.objectContaining({
        line: 5,
        field: 'name',
        message: expect.stringContaining('(rows of lines 5, 6)'),
      }),
    ]);
    expect(itemCounts(plan)).toEqual({ 'products.put': 1, 'products.prices.patch': 1 });
    expect(payloads(plan, 'products.prices.patch')).toEqual({
      keep: { prices: [{ amount: '12.50', currency: 'EUR' }] },
    });
  });
});
