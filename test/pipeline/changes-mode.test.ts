/**
 * Changes mode against committed state: a feed's change is planned unless state has it already,
 * so the same feed run twice sends nothing; `sendWithNew` still re-sends with a recreated entity.
 */
import { describe, expect, it } from 'vitest';
import { definitionOf, planItems } from './helpers.js';
import { counts, useSnapshotHarness } from './snapshot-harness.js';

const h = useSnapshotHarness('changes');

const priceEntity = {
  name: 'price',
  operations: { upsert: 'products.prices.patch' },
  key: 'No.',
  duplicates: 'group',
  fields: {
    prices: {
      merge: 'last',
      array: [
        {
          object: {
            amount: { column: 'Price', type: 'decimal', scale: 2, required: true },
            currency: { value: 'NOK' },
          },
        },
      ],
    },
  },
};

const feed = definitionOf('feed', {
  source: { connector: 'csv' },
  mode: 'changes',
  changeType: { column: 'Type', values: { U: 'upsert', D: 'delete' } },
  entities: [
    priceEntity,
    { name: 'product', operations: { delete: 'products.delete' }, key: 'No.' },
  ],
});

describe('changes mode', () => {
  it('plans each change once: the same feed again gives nothing, and infers nothing from absence', async () => {
    const file = h.file('feed.csv', 'Type,No.,Price\nU,1,5\nD,2,\nU,3,7\nU,1,6\n');
    const first = await h.plan(feed, file, 100);
    // A delete of a key without state is sent (another pipeline may have created it).
    expect(counts(first)).toEqual({ 'products.prices.patch': 2, 'products.delete': 1 });
    expect(first.deletes).toBe(1);
    // The later change of item 1 wins.
    expect(planItems(first).find((i) => i.key === '1')?.payload).toEqual({
      prices: [{ amount: '6.00', currency: 'NOK' }],
    });
    await h.commitAll(first);
    const state = h.store();
    expect(await state.count('feed', 'products')).toBe(0);
    expect((await state.read('feed', 'products', ['2'])).get('2')?.deleted).toBe(true);

    const again = await h.plan(feed, file, 200);
    expect(counts(again)).toEqual({});
    expect(planItems(again)).toEqual([]);
    expect(again.deletes).toBe(0);
    expect(again.unchanged).toEqual({ prices: 2 });
  });

  it('plans what differs from state: a new price, a delete of a live entity, an upsert after a delete', async () => {
    const first = await h.plan(feed, h.file('a.csv', 'Type,No.,Price\nU,1,5\nU,2,7\nD,3,\n'), 100);
    await h.commitAll(first);
    const next = h.file('b.csv', 'Type,No.,Price\nU,1,5\nU,2,8\nU,3,9\nD,3,\n');
    // Item 3 both changes and goes: its price is new (no state), its product a tombstone.
    const second = await h.plan(feed, next, 200);
    expect(counts(second)).toEqual({ 'products.prices.patch': 2 });
    expect(planItems(second).map((i) => [i.key, i.baseVersion])).toEqual([
      ['2', 100],
      ['3', 0],
    ]);
    expect(second.unchanged).toEqual({ prices: 1 });
  });

  it('sends an unchanged entity again when its sendWithNew entity is created again', async () => {
    const withProducts = definitionOf('feed2', {
      source: { connector: 'csv' },
      mode: 'changes',
      changeType: { column: 'Type', values: { U: 'upsert', D: 'delete' } },
      entities: [
        {
          name: 'product',
          operations: { upsert: 'products.put', delete: 'products.delete' },
          key: 'No.',
          fields: {
            name: { column: 'Name', required: true },
            vendor: { value: '' },
            handle: { template: 'p-{No.}' },
            active: { value: true },
            categoryExternalIds: { value: [] },
          },
        },
        { ...priceEntity, duplicates: 'error', sendWithNew: 'product' },
      ],
    });
    const put = h.file('put.csv', 'Type,No.,Name,Price\nU,1,One,5\nU,2,Two,6\n');
    await h.commitAll(await h.plan(withProducts, put, 100));
    expect(counts(await h.plan(withProducts, put, 150))).toEqual({});

    await h.commitAll(
      await h.plan(withProducts, h.file('d.csv', 'Type,No.,Name,Price\nD,1,,\n'), 200),
    );
    // Product 1 is a tombstone now: it is created again, and its unchanged price goes with it.
    const again = await h.plan(withProducts, put, 300);
    expect(counts(again)).toEqual({ 'products.put': 1, 'products.prices.patch': 1 });
    expect(planItems(again).map((i) => [i.operationId, i.key])).toEqual([
      ['products.put', '1'],
      ['products.prices.patch', '1'],
    ]);
    expect(again.unchanged).toEqual({ products: 1, prices: 1 });
  });
});
