import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import type { Plan } from '../../src/pipeline/types.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { configWith, definitionOf, tempDir } from './helpers.js';

const prefix = uniquePrefix('batching');
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

const rows = (n: number, long = (_i: number) => ''): string =>
  dir.file(
    `rows-${n}-${Math.random().toString(36).slice(2)}.csv`,
    [
      'No.;Name;Cat;Price;Notes',
      ...Array.from(
        { length: n },
        (_, i) => `${i + 1};Product ${i + 1};C${i % 3};${i + 1},50;${long(i)}`,
      ),
    ].join('\n'),
  );

async function planWith(config: FerryConfig, file: string): Promise<Plan> {
  const definition = definitionOf(
    'b',
    {
      source: { connector: 'csv' },
      mode: 'snapshot',
      entities: [
        {
          name: 'category',
          operations: { upsert: 'categories.put' },
          key: 'Cat',
          duplicates: 'first',
          fields: { name: 'Cat', sortIndex: { value: 1 } },
        },
        {
          name: 'product',
          operations: { upsert: 'products.put' },
          key: 'No.',
          fields: {
            name: 'Name',
            description: 'Notes',
            vendor: { value: 'V' },
            handle: { template: 'h{No.}' },
            active: { value: true },
            categoryExternalIds: { array: [{ column: 'Cat' }] },
          },
        },
        {
          name: 'price',
          operations: { upsert: 'products.prices.patch' },
          key: 'No.',
          fields: {
            prices: {
              array: [
                {
                  object: {
                    amount: { column: 'Price', type: 'decimal', decimalSeparator: ',', scale: 2 },
                    currency: { value: 'NOK' },
                  },
                },
              ],
            },
          },
        },
      ],
    },
    config,
  );
  return planPipeline({ definition, sourceOverride: { file }, redis, prefix, config, version: 1 });
}

describe('batching requests', () => {
  it('cuts batches at the binding maxItems, in stage order, one request per entity for path-addressed operations', async () => {
    const config = configWith({ interface: { bindings: { 'products.put': { maxItems: 4 } } } });
    const plan = await planWith(config, rows(10));
    expect(plan.operations).toEqual({
      'categories.put': { items: 3, requests: 1 },
      'products.put': { items: 10, requests: 3 },
      'products.prices.patch': { items: 10, requests: 10 },
    });
    expect(plan.stages.map((s) => s.operationIds)).toEqual([
      ['categories.put'],
      ['products.put'],
      ['products.prices.patch'],
    ]);
    const puts = plan.stages[1]?.requests ?? [];
    expect(puts.map((r) => r.items.length)).toEqual([4, 4, 2]);
    expect(puts[0]?.body).toEqual(puts[0]?.items.map((i) => i.payload));
    const price = plan.stages[2]?.requests[0];
    expect(price).toMatchObject({
      operationId: 'products.prices.patch',
      pathParams: { productId: '1' },
      body: { prices: [{ amount: '1.50', currency: 'NOK' }] },
    });
  });

  it('cuts batches before they grow past maxBytes; an item larger than that goes alone', async () => {
    const maxBytes = 600;
    const config = configWith({ interface: { bindings: { 'products.put': { maxBytes } } } });
    const plan = await planWith(
      config,
      rows(12, (i) => (i === 5 ? 'x'.repeat(900) : 'ø'.repeat(20))),
    );
    const puts = plan.stages[1]?.requests ?? [];
    expect(puts.reduce((n, r) => n + r.items.length, 0)).toBe(12);
    for (const r of puts) {
      const bytes = Buffer.byteLength(JSON.stringify(r.body));
      if (r.items.length > 1) expect(bytes).toBeLessThanOrEqual(maxBytes);
    }
    const big = puts.find((r) => r.items.some((i) => i.key === '6'));
    expect(big?.items).toHaveLength(1);
    expect(puts.length).toBeGreaterThan(3);
    // The order of the items is the order of the file.
    expect(puts.flatMap((r) => r.items.map((i) => i.key))).toEqual(
      Array.from({ length: 12 }, (_, i) => String(i + 1)),
    );
  });
});
