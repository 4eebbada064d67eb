/**
 * Before-images, on real Redis and the simulator: delivery keeps the payload it last delivered per
 * entity, and for each change of a run the payload the entity had before it (a new entity has
 * none, a patch is kept whole); they expire after undo.retentionDays.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import {
  createPayloadHistory,
  type BeforeImage,
} from '../../src/state/before-images/payload-history.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { until } from '../helpers/until.js';
import { guardedCatalog } from './guarded-catalog.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const row = (no: string, price: string): string =>
  `${no};Item ${no};;Acme;GEN;Gensere;;10;${price};NOK;No;;;01.01.2026`;

const h = useDeliveryHarness('before-images', { seed: 3 });
let config: FerryConfig;
let worker: DeliveryWorker;

function itemsFile(name: string, rows: readonly string[]): string {
  const file = join(h.dir, name);
  writeFileSync(file, [HEADER, ...rows, ''].join('\r\n'), 'latin1');
  return file;
}

async function run(name: string, rows: readonly string[]): Promise<string> {
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file: itemsFile(name, rows) },
  });
  await followRun(h.redis, deliveryKeys(h.prefix), runId, () => undefined);
  return runId;
}

async function imagesOf(runId: string, retentionDays = 14): Promise<BeforeImage[]> {
  const history = createPayloadHistory(h.redis, h.prefix, retentionDays);
  const out: BeforeImage[] = [];
  for await (const batch of history.beforeImages('catalog', runId)) out.push(...batch);
  return out.sort((a, b) => `${a.resource}${a.key}`.localeCompare(`${b.resource}${b.key}`));
}

beforeAll(async () => {
  config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
  config.pipelines.dir = guardedCatalog(h.dir);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
});

afterAll(async () => {
  await worker.close();
});

/** Ten products, P1 at `p1` (within the catalog's value guards: one price of ten changes). */
const night = (p1: string): string[] => [
  row('P1', p1),
  ...Array.from({ length: 9 }, (_, i) => row(`P${i + 2}`, '20,00')),
];

it('keeps what each change replaced, and the payload last delivered', async () => {
  const first = await run('night1.csv', night('10,00'));
  const created = await imagesOf(first);
  // Everything was new: before-images without a payload, base version 0.
  expect(created).toHaveLength(21);
  expect(created.every((i) => i.baseVersion === 0 && i.before === undefined)).toBe(true);
  expect(created.slice(0, 3).map((i) => [i.resource, i.key, i.kind])).toEqual([
    ['categories', 'GEN', 'upsert'],
    ['prices', 'P1', 'upsert'],
    ['prices', 'P10', 'upsert'],
  ]);

  const second = await run('night2.csv', night('50,00'));
  const changed = await imagesOf(second);
  expect(changed).toHaveLength(1);
  expect(changed[0]).toMatchObject({ resource: 'prices', key: 'P1' });
  expect(changed[0]!.baseVersion).toBeGreaterThan(0);
  expect(changed[0]!.before?.payload).toMatchObject({ prices: [{ amount: '10.00' }] });

  const history = createPayloadHistory(h.redis, h.prefix, 14);
  const [p1, p2, none] = await history.lastDelivered('catalog', 'prices', ['P1', 'P2', 'P99']);
  expect(p1?.payload).toMatchObject({ prices: [{ amount: '50.00', currency: 'NOK' }] });
  expect(p2?.payload).toMatchObject({ prices: [{ amount: '20.00' }] });
  expect(none).toBeUndefined();
  const ttl = await history.ttl('catalog', second);
  expect(ttl).toBeGreaterThan(13 * 86_400);
  expect(ttl).toBeLessThanOrEqual(14 * 86_400);
});

it('lets before-images expire after undo.retentionDays', async () => {
  // A worker keeping before-images one second.
  await worker.close();
  worker = await startDeliveryWorker({
    config: { ...config, undo: { retentionDays: 1 / 86_400 } },
    logger: quietLogger(),
  });
  const runId = await run('night3.csv', night('11,00'));
  const history = createPayloadHistory(h.redis, h.prefix, 14);
  expect((await imagesOf(runId)).map((i) => i.key)).toEqual(['P1']);
  await until(
    'the before-images to expire',
    async () => (await history.ttl('catalog', runId)) === -2,
  );
  expect(await imagesOf(runId)).toEqual([]);
  // What was last delivered is state, not history: it stays.
  const [p1] = await history.lastDelivered('catalog', 'prices', ['P1']);
  expect(p1?.payload).toMatchObject({ prices: [{ amount: '11.00' }] });
});
