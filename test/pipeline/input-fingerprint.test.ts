import { describe, expect, it } from 'vitest';
import type { PipelineDefinition } from '../../src/pipeline/definition/definition-types.js';
import { stateKey } from '../../src/state/keys.js';
import { registerTransform } from '../../src/pipeline/transforms/index.js';
import { definitionOf, planItems } from './helpers.js';
import { counts, PRICE_ENTITY, ROWS, useSnapshotHarness } from './snapshot-harness.js';

const h = useSnapshotHarness('input-fp');

// Counts how often mapping builds a product's vendor: once per record mapped.
let mapped = 0;
registerTransform('countedVendor', (v) => {
  mapped += 1;
  return v;
});
// A transform that may read other columns: its entity's input is the whole record.
registerTransform('vendorOrName', (v, { fields }) => v || fields.Name);
// One that reads them without saying so: its entity's input would miss the column it reads.
registerTransform('vendorByNameUndeclared', (v, ...rest) =>
  rest[0]?.fields.Name === 'Two' ? v.toUpperCase() : v,
);

function pipeline(
  options: { active?: boolean; vendorTransform?: string } = {},
): PipelineDefinition {
  return definitionOf('fp', {
    source: { connector: 'csv' },
    mode: 'snapshot',
    entities: [
      {
        name: 'product',
        operations: { upsert: 'products.put' },
        key: 'No.',
        fields: {
          name: { column: 'Name', required: true },
          vendor: { column: 'Vendor', transform: options.vendorTransform ?? 'countedVendor' },
          handle: { template: 'p-{No.}' },
          active: { value: options.active ?? true },
          categoryExternalIds: { value: [] },
        },
      },
      PRICE_ENTITY,
    ],
  });
}

async function planCounting(def: PipelineDefinition, file: string, version: number) {
  mapped = 0;
  const plan = await h.plan(def, file, version);
  return { plan, mapped };
}

describe('input fingerprints', () => {
  it('an unchanged night maps no record and sends nothing', async () => {
    const def = pipeline();
    const first = await planCounting(def, h.csv(ROWS), 100);
    expect(first.mapped).toBe(3);
    await h.commitAll(first.plan);

    const again = await planCounting(def, h.csv(ROWS), 200);
    expect(again.mapped).toBe(0);
    expect(again.plan.operations).toEqual({});
    expect(again.plan.unchanged).toEqual({ products: 3, prices: 3 });
  });

  it('maps only the changed record, sends only the changed entity, and the next night maps nothing', async () => {
    const def = pipeline();
    await h.commitAll((await planCounting(def, h.csv(ROWS), 100)).plan);
    const newPrice = h.csv([ROWS[0]!, ['2', 'Two', '21,00'], ROWS[2]!]);

    const changed = await planCounting(def, newPrice, 200);
    expect(changed.mapped).toBe(1);
    expect(planItems(changed.plan).map((i) => [i.operationId, i.key])).toEqual([
      ['products.prices.patch', '2'],
    ]);
    expect(changed.plan.unchanged).toEqual({ products: 3, prices: 2 });
    await h.commitAll(changed.plan);

    // The product of line 3 was not sent, yet its input is the one state has: nothing is mapped.
    const next = await planCounting(def, newPrice, 300);
    expect(next.mapped).toBe(0);
    expect(next.plan.operations).toEqual({});
  });

  it('maps every record again when the mapping changes, and sends what it changes', async () => {
    await h.commitAll((await planCounting(pipeline(), h.csv(ROWS), 100)).plan);
    const changed = await planCounting(pipeline({ active: false }), h.csv(ROWS), 200);
    expect(changed.mapped).toBe(3);
    expect(counts(changed.plan)).toEqual({ 'products.put': 3 });
    expect(changed.plan.unchanged).toEqual({ prices: 3 });
  });

  it('takes the whole record as input when a transform may read other columns', async () => {
    const def = pipeline({ vendorTransform: 'vendorOrName' });
    const product = def.entities[0]!;
    expect(product.mapping.inputs.columns).toBeUndefined();
    expect(def.entities[1]!.mapping.inputs.columns).toEqual(['No.', 'Price']);
    expect(pipeline().entities[0]!.mapping.inputs.columns).toEqual(['Name', 'No.', 'Vendor']);

    await h.commitAll(await h.plan(def, h.csv(ROWS), 100));
    // Only the price column changed, so the product's output cannot have; but its input did.
    const p = await h.plan(def, h.csv([ROWS[0]!, ['2', 'Two', '21,00'], ROWS[2]!]), 200);
    expect(planItems(p).map((i) => [i.operationId, i.key])).toEqual([
      ['products.prices.patch', '2'],
    ]);
    const state = await h.store().read('fp', 'products', ['2']);
    expect(state.get('2')?.input).toMatch(/^[\w-]{16}$/);
  });

  it('stops the plan at the first record when a transform reads other columns undeclared', async () => {
    const def = pipeline({ vendorTransform: 'vendorByNameUndeclared' });
    expect(def.entities[0]!.mapping.inputs.columns).toEqual(['Name', 'No.', 'Vendor']);
    // Else a change in a column it reads unseen could be taken for an unchanged record.
    await expect(h.plan(def, h.csv(ROWS), 100)).rejects.toMatchObject({
      code: 'FERRY_TRANSFORM_UNDECLARED_READ',
    });
  });

  it('reads state written before fingerprints, by content, and sends nothing for unchanged rows', async () => {
    const def = pipeline();
    await h.commitAll((await planCounting(def, h.csv(ROWS), 100)).plan);
    const redis = h.redis();
    for (const resource of ['products', 'prices']) {
      const key = stateKey(h.prefix(), 'fp', resource);
      const values = await redis.hgetall(key);
      for (const [k, v] of Object.entries(values)) {
        // <version>|<hash>|<input>|<fields> -> <version>|<hash>|<fields>, the older format
        await redis.hset(key, k, v.replace(/^(\d+\|[^|]*\|)[^|{]*\|/, '$1'));
      }
      expect(Object.values(await redis.hgetall(key)).every((v) => /^\d+\|[\w-]+\|$/.test(v))).toBe(
        true,
      );
    }
    const again = await planCounting(def, h.csv(ROWS), 200);
    expect(again.mapped).toBe(3);
    expect(again.plan.operations).toEqual({});
    expect(again.plan.unchanged).toEqual({ products: 3, prices: 3 });
  });

  it('keeps rejecting a repeated key and reporting errors in line order on an unchanged night', async () => {
    const def = pipeline();
    const rows = h.csv([...ROWS, ['2', 'Two again', '5,00'], ['4', '', '1,00']]);
    const first = await h.plan(def, rows, 100);
    await h.commitAll(first);
    const again = await h.plan(def, rows, 200);
    expect(again.errors.map((e) => [e.line, e.field])).toEqual([
      [5, 'No.'],
      [6, 'Name'],
    ]);
    expect(again.errors).toEqual(first.errors);
    expect(again.operations).toEqual({});
  });
});
