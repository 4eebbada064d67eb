/**
 * Value guards on real Redis and the simulator: an export with every price multiplied by 100
 * stops before a single request (status guard_stopped, the guards named, samples with the old
 * prices Ferry delivered and the new ones); `ferry plan` shows the same under `guards`; the
 * stopped plan is allowed once, and only that plan.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import type { ValueGuardError } from '../../src/pipeline/guards/guard-error.js';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import { planJson } from '../../src/pipeline/plan-report.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import type { GuardAllowError } from '../../src/runs/guards/guard-errors.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { buildRunReport } from '../../src/runs/run-report.js';
import { startRun, type StartRunOptions } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { guardedCatalog } from './guarded-catalog.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const PRODUCTS = Array.from({ length: 30 }, (_, i) => `P${String(i + 1).padStart(3, '0')}`);
/** Product i costs 10 + i kroner; `factor` multiplies every price. */
const rows = (factor: number): string[] =>
  PRODUCTS.map(
    (no, i) =>
      `${no};Item ${no};Nice;Acme;GEN;Gensere;;10;${(10 + i) * factor},00;NOK;No;;;01.01.2026`,
  );

const h = useDeliveryHarness('value-guards', { seed: 5 });
const keys = () => deliveryKeys(h.prefix);
let config: FerryConfig;
let worker: DeliveryWorker;
let poisoned: string;

function itemsFile(name: string, lines: readonly string[]): string {
  const file = join(h.dir, name);
  writeFileSync(file, [HEADER, ...lines, ''].join('\r\n'), 'latin1');
  return file;
}

function start(file: string, more: Partial<StartRunOptions> = {}) {
  return startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file },
    sourceName: 'items.csv',
    ...more,
  });
}

beforeAll(async () => {
  config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  config.pipelines.dir = guardedCatalog(h.dir);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  const { runId } = await start(itemsFile('night1.csv', rows(1)));
  await followRun(h.redis, keys(), runId, () => undefined);
  poisoned = itemsFile('poisoned.csv', rows(100));
});

afterAll(async () => {
  await worker.close();
});

it('counts a price dropped to 0 as moved beyond the factor', async () => {
  const zero = rows(1).map((r, i) => (i === 0 ? r.replace(';10,00;', ';0,00;') : r));
  const plan = await planPipeline({
    definition: loadPipeline('catalog', config),
    sourceOverride: { file: itemsFile('zero.csv', zero) },
    redis: h.redis,
    config,
    lastRows: 30,
  });
  const byGuard = Object.fromEntries(plan.guards!.results.map((r) => [r.guard, r]));
  expect(byGuard.valueChange).toMatchObject({ tripped: true, count: 1 });
  expect(byGuard.valueChange!.samples).toEqual([
    { resource: 'prices', key: 'P001', field: 'prices.0.amount', old: '10.00', new: '0.00' },
  ]);
  expect(byGuard.changedShare).toMatchObject({ tripped: false, count: 1 });
});

it('measures each guard over the resource its field belongs to, every guard listed', async () => {
  // 10 of 30 descriptions emptied (products) while every price changes (prices): 10 of 30
  // products trips emptied (max 0.2); over products + prices it read "10 of 60", not tripped.
  const night = rows(2).map((r, i) => (i < 10 ? r.replace(';Nice;', ';;') : r));
  const plan = await planPipeline({
    definition: loadPipeline('catalog', config),
    sourceOverride: { file: itemsFile('emptied.csv', night) },
    redis: h.redis,
    config,
    lastRows: 30,
  });
  const json = planJson(plan);
  expect(
    json.guards!.map(({ guard, field, resource, count, of, limit, tripped }) => ({
      guard,
      field,
      resource,
      count,
      of,
      limit,
      tripped,
    })),
  ).toEqual([
    {
      guard: 'changedShare',
      field: 'prices.0.amount',
      resource: 'prices',
      count: 30,
      of: 30,
      limit: 0.2,
      tripped: true,
    },
    {
      guard: 'valueChange',
      field: 'prices.0.amount',
      resource: 'prices',
      count: 0,
      of: 30,
      limit: 10,
      tripped: false,
    },
    {
      guard: 'emptied',
      field: 'description',
      resource: 'products',
      count: 10,
      of: 30,
      limit: 0.2,
      tripped: true,
    },
    { guard: 'rows', field: null, resource: null, count: 30, of: 30, limit: 0.5, tripped: false },
  ]);
  expect(json.guards![2]!.reason).toBe(
    'description would become empty for 10 of 30 products (33%); at most 20% may: stops the run.',
  );
});

it('stops prices multiplied by 100 before a single request, with old and new values', async () => {
  const before = h.sim.stats().requests;
  const error = (await start(poisoned).catch((e: unknown) => e)) as ValueGuardError;
  expect(error.code).toBe('FERRY_VALUE_GUARD');
  expect(h.sim.stats().requests).toBe(before);
  const runId = error.details.runId as string;
  expect(error.message).toContain(
    'guards.changedShare: prices.0.amount would change for 30 of 30 prices',
  );
  expect(error.message).toContain('guards.valueChange');
  expect(error.message).toContain(`--allow-guard ${runId}`);

  const report = await buildRunReport(
    h.redis,
    keys(),
    createDeadLetterStore(h.redis, keys()),
    runId,
  );
  expect(report.status).toBe('guard_stopped');
  expect(report.reason).toContain('guards.valueChange');
  const byGuard = Object.fromEntries(report.guards!.map((r) => [r.guard, r]));
  expect(byGuard.changedShare).toMatchObject({ tripped: true, count: 30, of: 30, limit: 0.2 });
  expect(byGuard.valueChange).toMatchObject({ tripped: true, count: 30, limit: 10 });
  expect(byGuard.emptied).toMatchObject({ tripped: false, count: 0 });
  expect(byGuard.rows).toMatchObject({ tripped: false, count: 30, of: 30 });
  const samples = byGuard.changedShare!.samples;
  expect(samples).toHaveLength(20);
  for (const s of samples) {
    const i = PRODUCTS.indexOf(s.key);
    expect(s).toEqual({
      resource: 'prices',
      key: s.key,
      field: 'prices.0.amount',
      old: `${10 + i}.00`,
      new: `${(10 + i) * 100}.00`,
    });
  }

  // ferry plan shows the same under `guards`.
  const plan = await planPipeline({
    definition: loadPipeline('catalog', config),
    sourceOverride: { file: poisoned },
    redis: h.redis,
    config,
    lastRows: 30,
  });
  const json = planJson(plan);
  expect(json.guardsTripped).toBe(true);
  expect(plan.guards?.planDigest).toBeTruthy();
  const shown = json.guards!.find((r) => r.guard === 'valueChange');
  expect(shown?.reason).toBe(
    'prices.0.amount would move more than 10 times up or down for 30 of 30 prices; none may: stops the run.',
  );
  expect(shown?.samples).toEqual(byGuard.valueChange!.samples);
});

it('sends the stopped plan once when allowed, from the input it kept, and only that plan', async () => {
  const tonight = itemsFile('tonight.csv', rows(100));
  const error = (await start(tonight).catch((e: unknown) => e)) as ValueGuardError;
  const stoppedId = error.details.runId as string;
  // The advice as printed works: no --file, the stopped run's input is kept.
  expect(error.message).toContain(`\`ferry run catalog --allow-guard ${stoppedId}\``);
  expect(error.message).toContain('no --file needed');
  const allow = { stoppedRunId: stoppedId, by: 'ops-anna', fourEyes: false };

  // Another plan (one price more) is not the stopped one: refused, nothing sent.
  const requests = h.sim.stats().requests;
  const other = rows(100).map((r, i) => (i === 0 ? r.replace('1000,00', '1001,00') : r));
  const refused = (await start(itemsFile('other.csv', other), { allowGuard: allow }).catch(
    (e: unknown) => e,
  )) as GuardAllowError;
  expect(refused.code).toBe('FERRY_GUARD_ALLOW');
  expect(refused.message).toContain(`not the one run ${stoppedId} stopped`);
  expect(h.sim.stats().requests).toBe(requests);

  // Without a source it reads the input the stopped run kept (the file itself is gone), not the
  // pipeline's own source (which planned examples/items.csv and stopped again).
  rmSync(tonight);
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    allowGuard: allow,
  });
  const done = await followRun(h.redis, keys(), runId, () => undefined);
  expect(done.status).toBe('succeeded');
  const prices = h.sim.state('prices') as { productId?: string; prices?: { amount: string }[] }[];
  expect(JSON.stringify(prices)).toContain('"1000.00"');
  const stopped = await buildRunReport(
    h.redis,
    keys(),
    createDeadLetterStore(h.redis, keys()),
    stoppedId,
  );
  expect(stopped.guardAllowed).toEqual({ runId, by: 'ops-anna' });

  // Once: the allowance does not carry over to the next stop (prices back down 100x).
  const back = itemsFile('back.csv', rows(1));
  const again = (await start(back, { allowGuard: allow }).catch(
    (e: unknown) => e,
  )) as GuardAllowError;
  expect(again.code).toBe('FERRY_GUARD_ALLOW');
  expect(again.message).toContain('already allowed once');
});
