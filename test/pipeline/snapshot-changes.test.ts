import { describe, expect, it } from 'vitest';
import { planItems } from './helpers.js';
import { catalog, counts, ROWS, useSnapshotHarness } from './snapshot-harness.js';

const h = useSnapshotHarness('snapshot');

describe('snapshot change detection', () => {
  it('plans only new and changed entities, nothing for unchanged ones', async () => {
    const def = catalog();
    const first = await h.plan(def, h.csv(ROWS), 100);
    expect(counts(first)).toEqual({ 'products.put': 3, 'products.prices.patch': 3 });
    await h.commitAll(first);

    const same = await h.plan(def, h.csv(ROWS), 200);
    expect(same.operations).toEqual({});
    expect(same.unchanged).toEqual({ products: 3, prices: 3 });

    const changed = await h.plan(
      def,
      h.csv([ROWS[0]!, ['2', 'Two', '21,50'], ['3', 'Three v2', '30,00'], ['4', 'Four', '4']]),
      300,
    );
    const items = planItems(changed);
    expect(items.map((i) => [i.operationId, i.key, i.kind, i.baseVersion])).toEqual([
      ['products.put', '3', 'upsert', 100],
      ['products.put', '4', 'upsert', 0],
      ['products.prices.patch', '2', 'upsert', 100],
      ['products.prices.patch', '4', 'upsert', 0],
    ]);
    expect(items.every((i) => i.version === 300)).toBe(true);
    expect(changed.unchanged).toEqual({ products: 2, prices: 2 });
  });

  it('never writes state while planning', async () => {
    const def = catalog({ deletes: true, maxShare: 1 });
    await h.plan(def, h.csv(ROWS), 100);
    expect(await h.redis().keys(`${h.prefix()}:*`)).toEqual([]);
  });

  it('deletes entities missing from the export only when the pipeline enables deletes', async () => {
    await h.commitAll(await h.plan(catalog(), h.csv(ROWS), 100));
    const without = await h.plan(catalog(), h.csv([ROWS[0]!, ROWS[1]!]), 200);
    expect(without.deletes).toBe(0);
    expect(without.operations).toEqual({});

    const withDeletes = await h.plan(
      catalog({ deletes: true, maxShare: 0.5 }),
      h.csv([ROWS[0]!, ROWS[1]!]),
      200,
    );
    expect(withDeletes.deletes).toBe(1);
    const del = planItems(withDeletes);
    expect(del.map((i) => [i.operationId, i.key, i.kind, i.payload, i.baseVersion])).toEqual([
      ['products.delete', '3', 'delete', { externalId: '3' }, 100],
    ]);
    // Deletes come in the last stage.
    expect(withDeletes.stages.at(-1)?.operationIds).toEqual(['products.delete']);
  });

  it('spares an entity whose record was rejected tonight from deletes by absence', async () => {
    const def = catalog({ deletes: true, maxShare: 1 });
    await h.commitAll(await h.plan(def, h.csv(ROWS), 100));
    const p = await h.plan(def, h.csv([ROWS[0]!, ROWS[1]!, ['3', '', 'bad']]), 200);
    expect(p.errors.map((e) => e.line)).toEqual([4]);
    expect(p.deletes).toBe(0);
  });

  it('finds deletes exactly even when the live counter is off (it only lets a plan skip the scan)', async () => {
    const def = catalog({ deletes: true, maxShare: 1 });
    await h.commitAll(await h.plan(def, h.csv(ROWS), 100));
    const counter = `${h.prefix()}:state:{cat}:products:live`;
    expect(await h.redis().get(counter)).toBe('3');
    await h.redis().incrby(counter, 5);
    expect((await h.plan(def, h.csv(ROWS), 200)).deletes).toBe(0);
    const fewer = await h.plan(def, h.csv([ROWS[0]!]), 200);
    expect(planItems(fewer).map((i) => [i.operationId, i.key])).toEqual([
      ['products.delete', '2'],
      ['products.delete', '3'],
    ]);
  });

  it('sends a price again when its product is created again after a delete', async () => {
    const def = catalog({ deletes: true, maxShare: 1 });
    await h.commitAll(await h.plan(def, h.csv(ROWS), 100));
    await h.commitAll(await h.plan(def, h.csv([ROWS[0]!, ROWS[1]!]), 200));
    const back = await h.plan(def, h.csv(ROWS), 300);
    expect(planItems(back).map((i) => [i.operationId, i.key, i.baseVersion])).toEqual([
      ['products.put', '3', 200],
      ['products.prices.patch', '3', 100],
    ]);
  });

  it('sends only the changed fields (and the key) when the pipeline asks for PATCH', async () => {
    const def = catalog({ patch: true });
    const first = await h.plan(def, h.csv(ROWS), 100);
    expect(
      planItems(first).find((i) => i.operationId === 'products.put')?.fieldHashes,
    ).toBeDefined();
    await h.commitAll(first);
    const p = await h.plan(
      def,
      h.csv([['1', 'One renamed', '10,00'], ROWS[1]!, ['3', 'Three', '30,00', 'Other']]),
      200,
    );
    const items = planItems(p);
    expect(items.map((i) => [i.operationId, i.kind, i.payload])).toEqual([
      ['products.patch', 'patch', { externalId: '1', name: 'One renamed' }],
      ['products.patch', 'patch', { externalId: '3', vendor: 'Other' }],
    ]);
    await h.commitAll(p);
    const again = await h.plan(
      def,
      h.csv([['1', 'One renamed', '10,00'], ROWS[1]!, ['3', 'Three', '30,00', 'Other']]),
      300,
    );
    expect(again.operations).toEqual({});
  });
});
