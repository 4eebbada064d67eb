/**
 * Prices in product batches: with a description whose products PUT items carry `prices`, a
 * catalog run whose only changes are prices sends them in the product batches (≤ 0.02 requests
 * per changed price), the simulator holds the new prices, and a second run sends nothing;
 * without the description each price is a products.prices.patch request of its own, as before.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { configFromDescription } from '../../src/interface/openapi/configured-contract.js';
import { loadDescription } from '../../src/interface/openapi/load-description.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { loadRun } from '../../src/runs/run-report.js';
import { planSummary } from '../../src/pipeline/plan-report.js';
import type { Plan } from '../../src/pipeline/types.js';
import { deliverCatalog, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const DESCRIPTION = resolve(import.meta.dirname, '../fixtures/openapi/prices-in-batch-3.0.yaml');
const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const ITEMS = 300;

const h = useDeliveryHarness('prices-in-batch', { seed: 3 });

/** The item master with item i (of `from`..) priced `cents + i` øre. */
function items(name: string, from: number, cents: number): string {
  const rows = Array.from({ length: ITEMS }, (_, i) => {
    const price = String(cents + i);
    const amount = `${price.slice(0, -2)},${price.slice(-2)}`;
    return `${from + i};Item ${from + i};;Vendor;C1;Cat;;1;${amount};NOK;No;;;01.01.2026`;
  });
  const file = join(h.dir, name);
  writeFileSync(file, `${HEADER}\n${rows.join('\n')}\n`);
  return file;
}

/** Runs the catalog on `file` to its end; its plan. */
async function run(config: FerryConfig, file: string): Promise<Plan> {
  const { plan, run: done } = await deliverCatalog(h.redis, config, file);
  if (done) {
    const keys = deliveryKeys(config.redis.prefix);
    expect((await loadRun(h.redis, keys, done.id)).prices).toEqual(plan.prices);
  }
  return plan;
}

const requests = (plan: Plan): number =>
  Object.values(plan.operations).reduce((n, c) => n + c.requests, 0);

/** The simulator's prices of items from..from+ITEMS, as `amount currency` per key. */
function simPrices(from: number): string[] {
  const byKey = new Map(
    h.sim
      .state('prices')
      .map((p) => p as { productId: string; prices: { amount: string; currency: string }[] })
      .map((p) => [p.productId, p.prices.map((x) => `${x.amount} ${x.currency}`).join(',')]),
  );
  return Array.from({ length: ITEMS }, (_, i) => byKey.get(String(from + i)) ?? 'none');
}

const expected = (cents: number): string[] =>
  Array.from({ length: ITEMS }, (_, i) => `${((cents + i) / 100).toFixed(2)} NOK`);

describe('prices in product batches', () => {
  it('a price-only change travels in the product batches where the description allows it', async () => {
    const base = testConfig(`${h.prefix}-desc`, h.sim.url, join(h.dir, 'reports'));
    const config = configFromDescription(base, await loadDescription(DESCRIPTION));
    expect(config.interface.bindings['products.put']?.pricesInBatch).toBe(true);

    const first = await run(config, items('a.csv', 1000, 10_000));
    expect(first.operations['products.prices.patch']).toBeUndefined();
    expect(first.prices).toEqual({ changed: ITEMS, requests: 3 });
    expect(simPrices(1000)).toEqual(expected(10_000));

    const changed = await run(config, items('b.csv', 1000, 20_000));
    // Only the prices changed: each product goes again, its price inside, 100 to a request.
    expect(changed.operations).toEqual({ 'products.put': { items: ITEMS, requests: 3 } });
    expect(requests(changed) / ITEMS).toBeLessThanOrEqual(0.02);
    expect(changed.prices).toEqual({ changed: ITEMS, requests: 3 });
    expect(changed.unchanged).toEqual({ categories: 1 });
    expect(planSummary(changed, 'b.csv')).toContain(
      'prices: 300 changed prices in 3 requests (0.010 per changed price)',
    );
    expect(simPrices(1000)).toEqual(expected(20_000));

    const again = await run(config, items('c.csv', 1000, 20_000));
    expect(again.operations).toEqual({});
    expect(again.prices).toBeUndefined();
  });

  it('without a description each changed price is a request of its own, as before', async () => {
    const config = testConfig(`${h.prefix}-none`, h.sim.url, join(h.dir, 'reports'));
    await run(config, items('d.csv', 5000, 10_000));
    const changed = await run(config, items('e.csv', 5000, 30_000));
    expect(changed.operations).toEqual({
      'products.prices.patch': { items: ITEMS, requests: ITEMS },
    });
    expect(changed.prices).toEqual({ changed: ITEMS, requests: ITEMS });
    expect(simPrices(5000)).toEqual(expected(30_000));
    expect((await run(config, items('f.csv', 5000, 30_000))).operations).toEqual({});
  });
});
