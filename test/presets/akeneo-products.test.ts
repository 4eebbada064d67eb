/**
 * The akeneo-products preset on exports as Akeneo's CSV writer makes them: `;`, attribute codes
 * in the header (name-en_US, description-en_US-ecommerce, price-EUR), values quoted when they hold
 * a space, a `;` or a line break, empty localized values, several currencies, a decimal comma.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/pipeline/types.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { ferry, fixture, itemCounts, payloads, planPreset } from './helpers.js';

const prefix = uniquePrefix('akeneo');
let redis: Redis;
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

describe('akeneo-products on a product export', () => {
  const file = fixture('akeneo', 'products.csv');
  let plan: Plan;
  beforeAll(async () => {
    plan = await planPreset('akeneo-products', file, redis, prefix);
  });

  it('gives one product per sku row and rejects the bad rows by line', () => {
    expect(plan.rows).toBe(8);
    expect(plan.errors).toEqual([
      {
        file,
        line: 5,
        field: 'name-en_US',
        message: 'name-en_US: required, but empty',
        key: '10003',
      },
      {
        file,
        line: 6,
        field: 'price-EUR',
        message:
          'price-EUR: expected an amount such as 19.90 (or 19,90), not negative, got "twelve"',
        key: '10004',
      },
      {
        file,
        line: 9,
        field: 'sku',
        message: 'sku: "10001" repeats the key of the record on line 2',
        key: '10001',
      },
      {
        file,
        line: 10,
        field: 'ean',
        message: 'ean: expected a barcode (EAN, UPC, GTIN) of 8 to 14 digits, got "4006381 333931"',
        key: '10005',
      },
    ]);
    expect(itemCounts(plan)).toEqual({ 'products.put': 4, 'products.prices.patch': 3 });
  });

  it('maps the en_US values, the categories and enabled', () => {
    const products = payloads(plan, 'products.put');
    expect(products['10001']).toEqual({
      externalId: '10001',
      name: 'Crew neck T-shirt',
      description: '<p>Organic cotton crew neck; true to size.</p>\n<p>Our "everyday" tee.</p>',
      vendor: 'nordic_thread',
      handle: 'crew-neck-t-shirt-10001',
      gtin: '7038010069000',
      active: true,
      categoryExternalIds: ['summer_collection', 'tshirts'],
    });
    expect(products['10002']).toEqual({
      externalId: '10002',
      name: 'Ærø mug',
      vendor: 'aero_keramikk',
      handle: 'aero-mug-10002',
      active: false,
      categoryExternalIds: ['kitchen'],
    });
    // The sku and the EAN keep their leading zeros.
    expect(products['00042']).toMatchObject({ gtin: '0012345678905', vendor: '' });
    // A variant product (with a parent model) is a product of its own.
    expect(products['jacket-navy-l']).toMatchObject({ name: 'Rain jacket navy L' });
  });

  it('prices a product in every currency its row has a price for, and not at all without one', () => {
    expect(payloads(plan, 'products.prices.patch')).toEqual({
      '10001': {
        prices: [
          { amount: '19.90', currency: 'EUR' },
          { amount: '21.50', currency: 'USD' },
        ],
      },
      '10002': {
        prices: [
          { amount: '12.00', currency: 'EUR' },
          { amount: '10.50', currency: 'GBP' },
          { amount: '13.00', currency: 'USD' },
        ],
      },
      '00042': { prices: [{ amount: '35.00', currency: 'USD' }] },
    });
  });
});

describe('akeneo-products on an export with uuids, another channel and a decimal comma', () => {
  it('reads them', async () => {
    const file = fixture('akeneo', 'products_uuid_comma.csv');
    const plan = await planPreset('akeneo-products', file, redis, prefix);
    expect(plan.rows).toBe(3);
    expect(plan.errors).toEqual([]);
    expect(payloads(plan, 'products.put')['ch-100']).toMatchObject({
      description: 'Waterproof; taped seams',
      categoryExternalIds: ['alps', 'outerwear'],
    });
    expect(payloads(plan, 'products.prices.patch')).toEqual({
      'ch-100': {
        prices: [
          { amount: '249.00', currency: 'CHF' },
          { amount: '229.90', currency: 'EUR' },
        ],
      },
      'ch-101': { prices: [{ amount: '12.50', currency: 'CHF' }] },
    });
  });
});

describe('ferry plan akeneo-products', () => {
  it('prints the plan of an export as one JSON document', async () => {
    const r = await ferry(
      [
        'plan',
        'akeneo-products',
        '--file',
        fixture('akeneo', 'products_uuid_comma.csv'),
        '--json',
        '--show-items',
      ],
      prefix,
    );
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as {
      rows: number;
      items: { operationId: string; pathParams: Record<string, string> }[];
    };
    expect(plan.rows).toBe(3);
    expect(plan.items.filter((i) => i.operationId === 'products.prices.patch')).toEqual([
      expect.objectContaining({ pathParams: { productId: 'ch-100' } }),
      expect.objectContaining({ pathParams: { productId: 'ch-101' } }),
    ]);
  });
});
