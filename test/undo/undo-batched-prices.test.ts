/**
 * ferry undo of a run whose price changes rode in product batches (a description that lets the
 * products PUT items carry `prices`), on real Redis and the simulator over TCP: each riding price
 * had a before-image of its own, so the dry run names the prices it restores, the undo puts every
 * old price back (riding again in the product items), a rerun of the undone state plans nothing
 * and a rerun of the undone run's input plans its price changes again; an undo of the undo
 * rides them back.
 */
import { join, resolve } from 'node:path';
import { beforeAll, afterAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { configFromDescription } from '../../src/interface/openapi/configured-contract.js';
import { loadDescription } from '../../src/interface/openapi/load-description.js';
import { undoRun } from '../../src/orchestrate/undo-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { loadRun } from '../../src/runs/run-report.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { dryUndo, itemRow, runCatalog } from './catalog-runs.js';

const DESCRIPTION = resolve(import.meta.dirname, '../fixtures/openapi/prices-in-batch-3.0.yaml');
const PRODUCTS = Array.from({ length: 40 }, (_, i) => `P${String(i + 1).padStart(3, '0')}`);
/** Night 0 creates the products, their prices riding in the PUT items. */
const NIGHT0 = PRODUCTS.map((no, i) => itemRow(no, `${10 + i},50`, 'New'));
/** Night 1 changes every description and no price: the product items carry no prices. */
const NIGHT1 = PRODUCTS.map((no, i) => itemRow(no, `${10 + i},50`));
/** Night 2 doubles 12 prices (P001-P012) and changes P001's description too. */
const NIGHT2 = PRODUCTS.map((no, i) =>
  itemRow(no, i < 12 ? `${(10 + i) * 2},50` : `${10 + i},50`, i === 0 ? 'Nicer' : 'Nice'),
);

const h = useDeliveryHarness('undo-batched-prices', { seed: 5 });
const keys = () => deliveryKeys(h.prefix);
let config: FerryConfig;
let worker: DeliveryWorker;
let night2: string;
let undo1: string;

const run = (name: string, rows: readonly string[]) => runCatalog(h, config, name, rows);

/** Product key -> `amount currency` of its prices, as the simulator's state says over HTTP. */
async function simPrices(): Promise<Record<string, string>> {
  const answer = await fetch(`${h.sim.url}/__sim/state/prices`);
  const list = (await answer.json()) as {
    productId: string;
    prices: { amount: string; currency: string }[];
  }[];
  return Object.fromEntries(
    list.map((p) => [p.productId, p.prices.map((x) => `${x.amount} ${x.currency}`).join(',')]),
  );
}

async function simDescriptions(): Promise<Record<string, string>> {
  const answer = await fetch(`${h.sim.url}/__sim/state/products`);
  const list = (await answer.json()) as { externalId: string; description: string }[];
  return Object.fromEntries(list.map((p) => [p.externalId, p.description]));
}

const expected = (rows: readonly string[]) =>
  Object.fromEntries(
    rows.map((r) => {
      const cells = r.split(';');
      return [cells[0], `${cells[8]!.replace(',', '.')} NOK`];
    }),
  );

beforeAll(async () => {
  const base = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  config = configFromDescription(base, await loadDescription(DESCRIPTION));
  expect(config.interface.bindings['products.put']?.pricesInBatch).toBe(true);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await run('night0.csv', NIGHT0);
  await run('night1.csv', NIGHT1);
  const second = await run('night2.csv', NIGHT2);
  night2 = second.runId;
  // The prices rode in the product batch: no price request of their own.
  expect(second.plan.operations).toEqual({ 'products.put': { items: 12, requests: 1 } });
  expect(second.plan.prices).toEqual({ changed: 12, requests: 1 });
  expect(await simPrices()).toEqual(expected(NIGHT2));
});

afterAll(async () => {
  await worker.close();
});

/** Undoes `runId` to its end; the undo's id. */
async function undo(runId: string): Promise<string> {
  const dry = await dryUndo(h, config, runId);
  const result = await undoRun({ config, redis: h.redis, logger: quietLogger(), runId });
  expect(result.operations).toEqual(dry.operations);
  expect(result.prices).toEqual(dry.prices);
  const undoRunId = result.undoRunId!;
  expect((await followRun(h.redis, keys(), undoRunId, () => undefined)).status).toBe('succeeded');
  return undoRunId;
}

it('restores every price that rode in a product batch, and names them in the dry run', async () => {
  expect(await dryUndo(h, config, night2)).toEqual({
    runId: night2,
    operations: { 'products.put': { items: 12 } },
    prices: { restored: 12, requests: 1 },
    skipped: [],
  });
  undo1 = await undo(night2);
  expect((await loadRun(h.redis, keys(), undo1)).prices).toEqual({ changed: 12, requests: 1 });
  expect(await simPrices()).toEqual(expected(NIGHT1));
  expect((await simDescriptions()).P001).toBe('Nice');
});

it('leaves state as the undone run found it: a rerun of night 1 plans nothing', async () => {
  const again = await run('night1-again.csv', NIGHT1);
  expect(again.plan.operations).toEqual({});
  expect(again.plan.prices).toBeUndefined();
});

it('undoes the undo, the prices riding again, and leaves nothing for night 2 to plan', async () => {
  const dry = await dryUndo(h, config, undo1);
  expect(dry.operations).toEqual({ 'products.put': { items: 12 } });
  expect(dry.prices).toEqual({ restored: 12, requests: 1 });
  const undo2 = await undo(undo1);
  expect(await simPrices()).toEqual(expected(NIGHT2));
  expect((await simDescriptions()).P001).toBe('Nicer');
  expect((await run('night2-again.csv', NIGHT2)).plan.operations).toEqual({});

  // Undone once more, night 2's input plans its price changes again.
  await undo(undo2);
  expect(await simPrices()).toEqual(expected(NIGHT1));
  const again = await run('night2-third.csv', NIGHT2);
  expect(again.plan.operations).toEqual({ 'products.put': { items: 12, requests: 1 } });
  expect(again.plan.prices).toEqual({ changed: 12, requests: 1 });
  expect(await simPrices()).toEqual(expected(NIGHT2));
});
