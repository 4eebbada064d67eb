/**
 * The projection a reconciliation compares: a platform item reduced to the fields the pipeline
 * maps, hashed as the planner hashes the payload it delivered, so that an item the platform holds
 * unchanged gives state's hash whatever the platform adds around it.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { contentHash } from '../../src/pipeline/hashing.js';
import { resourcesToCheck } from '../../src/reconcile/checked-resources.js';
import { differingFields, projectItem } from '../../src/reconcile/project-item.js';

const config = configSchema.parse({});
const stores = resourcesToCheck(loadPipeline('stores', config), 'A').checked[0]!;

// As the mapper builds it: keys sorted, nested ones too.
const delivered = {
  active: true,
  address: { city: 'Oslo', country: 'NO', postalCode: '0150', street: 'Storgata 77' },
  externalId: 'S001',
  name: 'Oslo',
};

describe('projectItem', () => {
  it('hashes an unchanged item as the delivered payload, whatever the platform adds', () => {
    const held = {
      name: 'Oslo',
      externalId: 'S001',
      address: { street: 'Storgata 77', postalCode: '0150', country: 'NO', city: 'Oslo' },
      active: true,
      phone: null, // the platform's way of saying none
      createdAt: '2026-01-01T00:00:00Z', // not a field the pipeline maps
    };
    const p = projectItem(stores, held);
    expect(p?.key).toBe('S001');
    expect(p?.hash).toBe(contentHash(JSON.stringify(delivered)));
  });

  it('reads a numeric key as a string and skips an item without a key', () => {
    expect(projectItem(stores, { ...delivered, externalId: 7 })?.key).toBe('7');
    expect(projectItem(stores, { name: 'no key' })).toBeUndefined();
    expect(projectItem(stores, 'not an item')).toBeUndefined();
  });

  it('names the fields that differ, nested values compared whole', () => {
    const edited = { ...delivered, address: { ...delivered.address, city: 'Bergen' }, url: 'x' };
    expect(differingFields(edited, delivered)).toEqual(['address', 'url']);
    expect(differingFields(delivered, { ...delivered })).toEqual([]);
  });
});

describe('resourcesToCheck', () => {
  it('checks products, and names categories and prices as unread', () => {
    const plan = resourcesToCheck(loadPipeline('catalog', config), 'A');
    expect(plan.checked.map((r) => [r.resource, r.operationId])).toEqual([
      ['products', 'products.get'],
    ]);
    expect(plan.unchecked.map((u) => u.resource)).toEqual(['categories', 'prices']);
  });

  it('refuses listing B, which has no products.get, by name (exit 2)', () => {
    expect(() => resourcesToCheck(loadPipeline('catalog', config), 'B')).toThrow(
      expect.objectContaining({ code: 'FERRY_OPERATION_NOT_IN_LISTING', exitCode: 2 }),
    );
  });
});
