/**
 * The shopify-products preset on exports of two of Shopify's column generations (fixtures with
 * the quirks real exports have: BOM, CRLF, HTML bodies with quotes, commas and line breaks,
 * variant rows with an empty Title, image-only rows without a price).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/pipeline/types.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { ferry, fixture, itemCounts, payloads, planPreset } from './helpers.js';

const prefix = uniquePrefix('shopify');
let redis: Redis;
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

describe('shopify-products on a 2023 export (Handle, Body (HTML), Variant Price, Status)', () => {
  const file = fixture('shopify', 'products_export_1.csv');
  let plan: Plan;
  beforeAll(async () => {
    plan = await planPreset('shopify-products', file, redis, prefix);
  });

  it('gives one product per handle and rejects the bad rows by line', () => {
    expect(plan.rows).toBe(11);
    expect(plan.errors).toEqual([
      {
        file,
        line: 11,
        field: 'Variant Price',
        message: 'Variant Price: expected a decimal number like 1,234.56, got "$24.00"',
        key: 'broken-price',
      },
      expect.objectContaining({
        file,
        line: 15,
        field: 'name',
        message: expect.stringContaining(
          'name: required by the products schema, but the mapping gave no value',
        ),
      }),
    ]);
    expect(itemCounts(plan)).toEqual({
      'categories.put': 3,
      'products.put': 4,
      'products.prices.patch': 4,
    });
  });

  it('maps the product row, keeps the HTML body and reads Status for active', () => {
    const products = payloads(plan, 'products.put');
    expect(products['linen-shirt']).toEqual({
      externalId: 'linen-shirt',
      name: 'Linen Shirt',
      description:
        '<p>Breathable linen, cut for "long summer evenings".</p>\n<ul>\n<li>Sizes S, M, L</li>\n<li>Wash at 40°C</li>\n</ul>',
      vendor: 'Nordic Thread',
      handle: 'linen-shirt',
      active: true,
      categoryExternalIds: ['shirts'],
    });
    expect(products['wool-beanie']).toMatchObject({ active: false, categoryExternalIds: ['hats'] });
    expect(products['ceramic-mug']).toMatchObject({
      name: 'Ærø Ceramic Mug',
      vendor: 'Ærø Keramikk',
      active: false,
    });
    expect(products['gift-card']).toEqual({
      externalId: 'gift-card',
      name: 'Gift Card',
      vendor: 'Nordic Thread',
      handle: 'gift-card',
      active: true,
      categoryExternalIds: [],
    });
    expect(Object.keys(products)).not.toContain('broken-price');
  });

  it("prices each product at its cheapest variant, in the shop's currency", () => {
    expect(payloads(plan, 'products.prices.patch')).toEqual({
      // Variants at 49.00, 49.00 and 54.50; the image-only row has no price.
      'linen-shirt': { prices: [{ amount: '49.00', currency: 'USD' }] },
      'wool-beanie': { prices: [{ amount: '19.90', currency: 'USD' }] },
      'ceramic-mug': { prices: [{ amount: '12.00', currency: 'USD' }] },
      'gift-card': { prices: [{ amount: '25.00', currency: 'USD' }] },
    });
  });

  it('gives one category per product Type', () => {
    expect(payloads(plan, 'categories.put')).toEqual({
      shirts: { externalId: 'shirts', name: 'Shirts', sortIndex: 0 },
      hats: { externalId: 'hats', name: 'Hats', sortIndex: 0 },
      kitchen: { externalId: 'kitchen', name: 'Kitchen', sortIndex: 0 },
    });
  });
});

describe('shopify-products on a 2024 export (URL handle, Description, Price)', () => {
  const file = fixture('shopify', 'products_export_2024.csv');

  it('reads the new column names', async () => {
    const plan = await planPreset('shopify-products', file, redis, prefix);
    expect(plan.rows).toBe(7);
    expect(plan.errors).toEqual([
      {
        file,
        line: 8,
        field: 'Price',
        message: 'Price: expected at least 0, got "-2.00"',
        key: 'gift-wrap',
      },
      { file, line: 9, field: 'Handle', message: 'Handle: required (it is the key), but empty' },
    ]);
    expect(payloads(plan, 'products.put')).toEqual({
      'trail-runner': {
        externalId: 'trail-runner',
        name: 'Trail Runner',
        description: '<p>Grippy sole, "rock plate", 8 mm drop.</p>\n<p>Vegan.</p>',
        vendor: 'Fjell Gear',
        handle: 'trail-runner',
        active: true,
        categoryExternalIds: ['shoes'],
      },
      'rain-shell': {
        externalId: 'rain-shell',
        name: 'Rain Shell',
        description: 'Seam-taped, 20k/20k.',
        vendor: 'Fjell Gear',
        handle: 'rain-shell',
        active: false,
        categoryExternalIds: ['jackets'],
      },
    });
    expect(payloads(plan, 'products.prices.patch')).toEqual({
      'trail-runner': { prices: [{ amount: '129.00', currency: 'USD' }] },
      'rain-shell': { prices: [{ amount: '1299.00', currency: 'USD' }] },
    });
  });
});

describe('ferry plan shopify-products', () => {
  it('needs --file, and says so', async () => {
    const r = await ferry(['plan', 'shopify-products', '--json'], prefix);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({
      error: {
        code: 'FERRY_USAGE',
        message:
          'Pipeline "shopify-products" (config/pipelines/shopify-products.yaml) names no source: give one with --file.',
      },
    });
  });

  it('prints the plan of an export as one JSON document, exit 1 for its rejected rows', async () => {
    const r = await ferry(
      ['plan', 'shopify-products', '--file', fixture('shopify', 'products_export_1.csv'), '--json'],
      prefix,
    );
    expect(r.code).toBe(1);
    const plan = JSON.parse(r.stdout) as {
      rows: number;
      operations: Record<string, { items: number }>;
      errors: { line: number }[];
    };
    expect(plan.rows).toBe(11);
    expect(plan.errors.map((e) => e.line)).toEqual([11, 15]);
    expect(plan.operations['products.put']?.items).toBe(4);
  });
});
