import { describe, expect, it } from 'vitest';
import { compileQuickCheck } from '../../src/pipeline/fast-check.js';
import { RESOURCE_SCHEMAS, schemaFor } from '../../src/pipeline/resource-schemas.js';

const VALID: Record<string, Record<string, unknown>> = {
  products: {
    externalId: '007',
    name: 'Ski',
    vendor: '',
    handle: 'ski-007',
    active: true,
    categoryExternalIds: ['SKI'],
    gtin: '0123',
  },
  categories: { externalId: 'SKI', name: 'Ski', sortIndex: 30 },
  campaigns: { externalId: 'C', name: 'Sale', adjustmentType: 'percent', value: '10.5' },
  stores: {
    externalId: 'S1',
    name: 'Oslo',
    address: { street: 'Storgata 1', postalCode: '0150', city: 'Oslo', country: 'NO' },
    active: false,
  },
  users: {
    externalId: 'E1',
    firstName: 'Åse',
    lastName: 'Dahl',
    email: 'a@b.no',
    role: 'admin',
    storeExternalIds: [],
    active: true,
  },
  ageGroups: { externalId: 'A', name: 'Kids', minAge: 3, maxAge: 12, sortIndex: 1 },
  prices: { prices: [{ amount: '1299.00', currency: 'NOK' }] },
};

/** Ways to spoil a payload: each field removed, given the wrong type, and an unknown field. */
function spoiled(payload: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{ ...payload, unknownField: 1 }];
  for (const key of Object.keys(payload)) {
    const without = { ...payload };
    delete without[key];
    out.push(without);
    for (const wrong of [null, 12.5, 'text', true, [], {}, [1], ['']])
      out.push({ ...payload, [key]: wrong });
  }
  out.push(
    { prices: [{ amount: '12,50', currency: 'NOK' }] },
    { prices: [] },
    { prices: [{ amount: '1', currency: 'nok' }] },
  );
  return out;
}

describe('quick checks compiled from the resource schemas', () => {
  it.each(Object.keys(RESOURCE_SCHEMAS))(
    '%s: accept what zod accepts, and never accept what zod refuses',
    (resource) => {
      const schema = RESOURCE_SCHEMAS[resource]!;
      for (const s of [schema, schema.partial()]) {
        const quick = compileQuickCheck(s);
        expect(quick).toBeDefined();
        expect(quick!(VALID[resource])).toBe(true);
        for (const payload of spoiled(VALID[resource]!)) {
          if (quick!(payload))
            expect(s.safeParse(payload).success, JSON.stringify(payload)).toBe(true);
        }
      }
      // It does refuse the obviously wrong.
      expect(compileQuickCheck(schema)!({ ...VALID[resource], unknownField: 1 })).toBe(false);
    },
  );

  it('follows a binding that names the key field otherwise', () => {
    const schema = schemaFor('products', 'sku')!;
    const { externalId, ...rest } = VALID.products!;
    expect(schema.safeParse({ ...rest, sku: externalId }).success).toBe(true);
    expect(compileQuickCheck(schema)!({ ...rest, sku: externalId })).toBe(true);
    expect(compileQuickCheck(schema)!(VALID.products)).toBe(false);
  });
});
