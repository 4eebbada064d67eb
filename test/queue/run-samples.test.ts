/**
 * A run of each sample file delivers exactly what was planned, the simulator holds it, and a
 * second run of the same file sends no request.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { executeRun } from '../../src/orchestrate/execute-run.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { sharedPath } from '../helpers/shared.js';
import { quietLogger, tempDir, testConfig, expectNothingOpen } from './delivery-fixtures.js';

interface Expected {
  operations: Record<string, number>;
  errors: number[];
}
const expected = JSON.parse(
  readFileSync(sharedPath('fixtures/erp/expected.json'), 'utf8'),
) as Record<string, Expected>;

const prefix = uniquePrefix('samples');
const reports = tempDir('samples');
let sim: RunningSimulator;
let config: FerryConfig;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 1 });
  config = testConfig(prefix, sim.url, reports.path);
});

afterAll(async () => {
  await sim.close();
  await deleteKeys(prefix);
  reports.remove();
  await expectNothingOpen();
});

async function run(pipeline: string, file: string, onStarted?: (runId: string) => void) {
  return await executeRun({
    config,
    logger: quietLogger(),
    pipeline,
    source: { file: resolve(PROJECT_ROOT, 'examples', file) },
    sourceName: `examples/${file}`,
    wait: true,
    ...(onStarted ? { onStarted } : {}),
  });
}

const keysOf = (items: unknown[], field = 'externalId') =>
  items.map((i) => String((i as Record<string, unknown>)[field])).sort();

/** The first run of a sample file: exactly the planned items delivered, its report written. */
async function firstRun(pipeline: string, file: string, want: Expected): Promise<void> {
  const before = sim.stats().requests;
  // Told once, when the run is planned and released (bench/delivery.ts splits its CPU there).
  const started: string[] = [];
  const report = await run(pipeline, file, (runId) => started.push(runId));
  expect(started).toEqual([report.runId]);
  expect(report.status).toBe(want.errors.length > 0 ? 'partial' : 'succeeded');
  expect(report.errors.map((e) => e.line)).toEqual(want.errors);
  expect(report.deadLettered).toBe(0);
  for (const [operationId, items] of Object.entries(want.operations)) {
    expect(report.operations[operationId]).toMatchObject({
      planned: items,
      delivered: items,
      failed: 0,
    });
  }
  const stageRequests = report.stages.reduce((n, s) => n + s.requests, 0);
  expect(sim.stats().requests - before).toBe(stageRequests);
  expect(sim.stats().duplicates).toBe(0);

  // How long it took, its reading and planning included (before its record's start).
  expect(report.planSeconds).toBeGreaterThan(0);
  expect(report.seconds).toBeGreaterThanOrEqual(0);

  const files = report.files as { json: string; csv: string };
  expect(JSON.parse(readFileSync(files.json, 'utf8')).runId).toBe(report.runId);
  const csvLines = readFileSync(files.csv, 'utf8').trim().split('\r\n');
  expect(csvLines).toHaveLength(1 + want.errors.length);
}

describe('a run of each sample file', () => {
  it.each([
    ['catalog', 'items.csv', 'items'],
    ['stores', 'stores.csv', 'stores'],
    ['users', 'users.csv', 'users'],
  ])(
    '%s delivers exactly the planned items, and a second run sends nothing',
    async (pipeline, file, name) => {
      const want = expected[name] as Expected;
      await firstRun(pipeline, file, want);
      const requestsAfterFirst = sim.stats().requests;
      const again = await run(pipeline, file);
      expect(sim.stats().requests).toBe(requestsAfterFirst);
      for (const [operationId, items] of Object.entries(want.operations)) {
        expect(again.operations[operationId]).toMatchObject({
          planned: 0,
          delivered: 0,
          skipped: items,
        });
      }
    },
  );

  it('item-changes delivers exactly the planned items, and a second run sends nothing', async () => {
    const want = expected['item-changes'] as Expected;
    await firstRun('item-changes', 'item-changes.csv', want);
    const requestsAfterFirst = sim.stats().requests;
    const prices = JSON.stringify(sim.state('prices'));
    // Changes mode compares each change with committed state: the prices are unchanged (skipped)
    // and the deleted products are tombstones already (not planned).
    const again = await run('item-changes', 'item-changes.csv');
    expect(sim.stats().requests).toBe(requestsAfterFirst);
    expect(again.status).toBe('succeeded');
    expect(again.operations['products.prices.patch']).toMatchObject({
      planned: 0,
      delivered: 0,
      skipped: want.operations['products.prices.patch'],
    });
    expect(again.operations['products.delete']?.planned ?? 0).toBe(0);
    expect(JSON.stringify(sim.state('prices'))).toBe(prices);
  });

  it('left the platform holding what the files say', () => {
    const items = expected.items as Expected;
    // item-changes deleted three products of the catalog.
    const deleted = (expected['item-changes'] as Expected).operations['products.delete'] ?? 0;
    expect(sim.state('products')).toHaveLength((items.operations['products.put'] ?? 0) - deleted);
    expect(sim.state('categories')).toHaveLength(items.operations['categories.put'] ?? 0);
    expect(sim.state('stores')).toHaveLength(
      (expected.stores as Expected).operations['stores.put'] ?? 0,
    );
    expect(sim.state('users')).toHaveLength(
      (expected.users as Expected).operations['users.put'] ?? 0,
    );
    const prices = sim.state('prices') as { productId?: string; prices?: { amount: string }[] }[];
    const price10030 = prices.find((p) => JSON.stringify(p).includes('"10030"'));
    // item-changes.csv: U;10030;495,55;NOK
    expect(JSON.stringify(price10030)).toContain('"495.55"');
    expect(keysOf(sim.state('stores'))).not.toContain('S001'); // rejected: not an email
  });

  it('delivered the stages in order: categories, then products, then prices', () => {
    const order: (string | null)[] = sim
      .requests()
      .map((r) => r.operationId)
      .filter(
        (id) => id === 'categories.put' || id === 'products.put' || id === 'products.prices.patch',
      );
    const first = (id: string) => order.indexOf(id);
    const last = (id: string) => order.lastIndexOf(id);
    expect(last('categories.put')).toBeLessThan(first('products.put'));
    expect(last('products.put')).toBeLessThan(first('products.prices.patch'));
  });

  it('left no run active and nothing in the queues', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      expect(await redis.scard(`${prefix}:{q}:active-runs`)).toBe(0);
      expect(await redis.keys(`${prefix}:{q}:active:*`)).toEqual([]);
      expect(await redis.keys(`${prefix}:{q}:run:*:stage:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
