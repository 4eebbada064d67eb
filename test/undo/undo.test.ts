/**
 * ferry undo on real Redis and the simulator: a run that changed prices and created a product is
 * undone exactly (every price back to what it was, the created product deleted) by a run of its
 * own; the undo is undone in turn; an entity a later run changed again is skipped and named.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { undoRun } from '../../src/orchestrate/undo-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { dryUndo, itemRow as line, runCatalog } from './catalog-runs.js';
import { guardedCatalog } from './guarded-catalog.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';

const PRODUCTS = Array.from({ length: 30 }, (_, i) => `P${String(i + 1).padStart(3, '0')}`);
/** Night 1: product i at 10+i kroner. */
const NIGHT1 = PRODUCTS.map((no, i) => line(no, `${10 + i},50`));
/** A bad night the guards let through: five prices doubled, and a product P031 that is no product. */
const NIGHT2 = [
  ...PRODUCTS.map((no, i) => line(no, i < 5 ? `${(10 + i) * 2},50` : `${10 + i},50`)),
  line('P031', '1,00'),
];

const h = useDeliveryHarness('undo', { seed: 4 });
const keys = () => deliveryKeys(h.prefix);
let config: FerryConfig;
let worker: DeliveryWorker;
let night2: string;
let undo1: string;
let undo2: string;

async function run(name: string, rows: readonly string[]): Promise<string> {
  return (await runCatalog(h, config, name, rows)).runId;
}

/** Product key -> its price on the simulator. */
function simPrices(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of h.sim.state('prices') as { productId: string; prices: { amount: string }[] }[]) {
    out[p.productId] = p.prices[0]!.amount;
  }
  return out;
}

const expected = (rows: readonly string[]) =>
  Object.fromEntries(rows.map((r) => [r.split(';')[0], r.split(';')[8]!.replace(',', '.')]));

async function undo(runId: string, force = false) {
  const result = await undoRun({ config, redis: h.redis, logger: quietLogger(), runId, force });
  expect((await followRun(h.redis, keys(), result.undoRunId!, () => undefined)).status).toBe(
    'succeeded',
  );
  return result;
}

beforeAll(async () => {
  config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  config.pipelines.dir = guardedCatalog(h.dir);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await run('night1.csv', NIGHT1);
  night2 = await run('night2.csv', NIGHT2);
  expect(simPrices()).toEqual(expected(NIGHT2));
});

afterAll(async () => {
  await worker.close();
});

it('restores every price exactly and deletes what the run created, after a dry run', async () => {
  const dry = await dryUndo(h, config, night2);
  expect(dry).toEqual({
    runId: night2,
    operations: { 'products.prices.patch': { items: 5 }, 'products.delete': { items: 1 } },
    prices: { restored: 5, requests: 5 },
    skipped: [
      {
        resource: 'prices',
        key: 'P031',
        reason: 'the run created it, and the pipeline gives prices no delete operation',
      },
    ],
  });

  const result = await undo(night2);
  undo1 = result.undoRunId!;
  expect(result.operations).toEqual(dry.operations);
  expect(result.prices).toEqual(dry.prices);
  expect(simPrices()).toEqual(expected(NIGHT1));
  expect(
    h.sim.state('products').map((p) => (p as { externalId: string }).externalId),
  ).not.toContain('P031');
  expect(await h.redis.hget(keys().run(undo1), 'undoOf')).toBe(night2);
});

it('undoes an undo', async () => {
  const result = await undo(undo1);
  undo2 = result.undoRunId!;
  expect(result.skipped).toEqual([]);
  // P031 is back as a product, and its price with it (sendWithNew: its price went with its
  // deletion on the platform, and the undo sends what Ferry last delivered for it).
  expect(result.operations).toEqual({
    'products.prices.patch': { items: 6 },
    'products.put': { items: 1 },
  });
  expect(simPrices()).toEqual(expected(NIGHT2));
  expect(h.sim.state('products').map((p) => (p as { externalId: string }).externalId)).toContain(
    'P031',
  );
});

it('skips and names an entity a later run changed again', async () => {
  // A later night changes P001's price again.
  const night3 = NIGHT2.map((r) => (r.startsWith('P001;') ? line('P001', '21,50') : r));
  await run('night3.csv', night3);
  const dry = await dryUndo(h, config, undo2);
  expect(dry.skipped).toContainEqual({
    resource: 'prices',
    key: 'P001',
    reason: expect.stringContaining('changed again by a later run'),
  });
  // P002-P005 back to night 1's, and P031's price (sent again with its product by the undo).
  expect(dry.operations['products.prices.patch']).toEqual({ items: 5 });
  const result = await undo(undo2);
  expect(result.skipped.map((s) => s.key)).toEqual(['P001']);
  const prices = simPrices();
  expect(prices.P001).toBe('21.50'); // the later run's price stays
  expect(prices.P002).toBe('11.50');
});
