/**
 * The catalog pipeline stays right on other files of the same format: a generated export with
 * the format's quirks (bench/generate-items.ts) plans with only the README's rejections.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { planItems, tempDir, testConfig } from './helpers.js';

const prefix = uniquePrefix('generated');
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

describe('a generated export of the items format', () => {
  it('plans every record the README accepts and rejects only for the README reasons', async () => {
    const file = `${dir.path}/items.csv`;
    await generateItems(4_000, file, 11);
    const plan = await planPipeline({
      definition: loadPipeline('catalog', testConfig),
      sourceOverride: { file },
      redis,
      prefix,
      config: testConfig,
    });
    expect(plan.rows).toBe(4_000);
    const fields = new Set(plan.errors.map((e) => e.field));
    expect(
      [...fields].every((f) => ['No.', 'Description', 'Unit Price'].includes(f as string)),
    ).toBe(true);
    expect(plan.errors.length).toBeGreaterThan(0);
    const accepted = plan.rows - plan.errors.length;
    expect(plan.operations['products.put']?.items).toBe(accepted);
    expect(plan.operations['products.prices.patch']?.items).toBe(accepted);
    expect(plan.operations['categories.put']?.items).toBe(8);
    for (const item of planItems(plan)) {
      if (item.operationId !== 'products.prices.patch') continue;
      const [price] = (item.payload as { prices: { amount: string; currency: string }[] }).prices;
      expect(price?.amount).toMatch(/^\d+\.\d{2}$/);
      expect(['NOK', 'SEK', 'EUR']).toContain(price?.currency);
    }
  });
});
