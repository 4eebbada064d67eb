/**
 * The planner with bindings' pricesInBatch on products.patch only: a price change rides in the
 * product's PATCH item (a patch of its key alone when nothing else changed, merged into its
 * changed fields otherwise); a new product's full upsert, whose PUT takes no prices, leaves its
 * price a request of its own; committing the plan leaves nothing to plan.
 */
import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config/schema.js';
import { definitionOf, planItems } from './helpers.js';
import { counts, PRICE_ENTITY, PRODUCT_FIELDS, useSnapshotHarness } from './snapshot-harness.js';

const h = useSnapshotHarness('prices-in-batch');

const config = configSchema.parse({
  interface: { bindings: { 'products.patch': { pricesInBatch: true } } },
});
/** A product (PUT and PATCH) and its price, as the pipeline `name` with this price entity. */
function catalog(name: string, price: object) {
  const product = {
    name: 'product',
    operations: { upsert: 'products.put', patch: 'products.patch' },
    key: 'No.',
    fields: PRODUCT_FIELDS,
  };
  const file = { source: { connector: 'csv' }, mode: 'snapshot', entities: [product, price] };
  return definitionOf(name, file, config);
}
const definition = catalog('cat', { ...PRICE_ENTITY, sendWithNew: 'product' });
const nok = (amount: string) => [{ amount, currency: 'NOK' }];

describe('prices in product batches (PATCH only)', () => {
  it('sends a price change inside the product PATCH item and commits both', async () => {
    const first = await h.plan(
      definition,
      h.csv([
        ['1', 'One', '10,00'],
        ['2', 'Two', '20,00'],
      ]),
      100,
    );
    expect(first.errors).toEqual([]);
    expect(counts(first)).toEqual({ 'products.put': 2, 'products.prices.patch': 2 });
    expect(first.prices).toEqual({ changed: 2, requests: 2 });
    await h.commitAll(first);

    const file = h.csv([
      ['1', 'One', '11,00'],
      ['2', 'Deux', '21,00'],
    ]);
    const changed = await h.plan(definition, file, 200);
    expect(changed.operations).toEqual({ 'products.patch': { items: 2, requests: 1 } });
    expect(changed.prices).toEqual({ changed: 2, requests: 1 });
    expect(planItems(changed).map((i) => [i.key, i.kind, i.payload])).toEqual([
      ['1', 'patch', { externalId: '1', prices: nok('11.00') }],
      ['2', 'patch', { externalId: '2', name: 'Deux', prices: nok('21.00') }],
    ]);
    expect(changed.unchanged).toEqual({});
    await h.commitAll(changed);
    const prices = await h.store().read('cat', 'prices', ['1', '2']);
    expect([prices.get('1')?.version, prices.get('2')?.version]).toEqual([200, 200]);

    const again = await h.plan(definition, file, 300);
    expect(again.operations).toEqual({});
    expect(again.prices).toBeUndefined();
    expect(again.unchanged).toEqual({ products: 2, prices: 2 });
  });
});

describe('a price mapped with more than its prices', () => {
  // The product item has a place for `prices` only: riding would lose `priceList` while state
  // said the price was delivered.
  const listed = catalog('listed', {
    ...PRICE_ENTITY,
    sendWithNew: 'product',
    // Ferry's assumed price schema has `prices` alone; a described one may take more.
    schema: 'none',
    fields: { ...PRICE_ENTITY.fields, priceList: { value: 'retail' } },
  });

  it('goes by itself, every field kept', async () => {
    const first = await h.plan(listed, h.csv([['1', 'One', '10,00']]), 100);
    expect(first.errors).toEqual([]);
    await h.commitAll(first);
    const changed = await h.plan(listed, h.csv([['1', 'One', '12,50']]), 200);
    expect(changed.operations).toEqual({ 'products.prices.patch': { items: 1, requests: 1 } });
    expect(planItems(changed).map((i) => i.payload)).toEqual([
      { prices: nok('12.50'), priceList: 'retail' },
    ]);
    expect(changed.prices).toEqual({ changed: 1, requests: 1 });
  });
});
