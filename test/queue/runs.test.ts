/**
 * Runs: one per pipeline at a time; an interactive import is not queued behind a bulk catalog;
 * `ferry status` shows the queues and the runs in progress.
 */
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { isFerryError } from '../../src/errors/index.js';
import { deliveryKeys } from '../../src/queue/keys.js';
import { followRun } from '../../src/queue/runs/follow-run.js';
import { startRun } from '../../src/queue/runs/start-run.js';
import { readStatus } from '../../src/queue/status.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { quietLogger, tempDir, testConfig, expectNothingOpen } from './delivery-fixtures.js';

const prefix = uniquePrefix('runs');
const dir = tempDir('runs');
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 2, faults: { latency: [15, 25] } });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(200, join(dir.path, 'items.csv'), 5);
});

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('runs', () => {
  it('one per pipeline; an interactive import overtakes a bulk catalog', async () => {
    const config = testConfig(prefix, sim.url, join(dir.path, 'reports'), {
      concurrency: 1,
      bundleSize: 5,
    });
    const logger = quietLogger();
    const keys = deliveryKeys(prefix);
    const catalog = await startRun({
      config,
      redis,
      logger,
      pipeline: 'catalog',
      source: { file: join(dir.path, 'items.csv') },
    });

    let refused: unknown;
    try {
      await startRun({
        config,
        redis,
        logger,
        pipeline: 'catalog',
        source: { file: join(dir.path, 'items.csv') },
      });
    } catch (error) {
      refused = error;
    }
    expect(isFerryError(refused) && refused.code).toBe('FERRY_RUN_ACTIVE');
    expect((refused as Error).message).toContain(catalog.runId);

    const stores = await startRun({
      config,
      redis,
      logger,
      pipeline: 'stores',
      lane: 'interactive',
      source: { file: resolve(PROJECT_ROOT, 'examples/stores.csv') },
    });
    const status = await readStatus(redis, keys);
    expect(status.activeRuns.map((r) => r.runId).sort()).toEqual(
      [catalog.runId, stores.runId].sort(),
    );
    expect(status.queues.bulk.waiting).toBeGreaterThan(0);
    expect(status.queues.interactive.waiting).toBe(1);

    const worker = await startDeliveryWorker({ config, logger });
    try {
      const storesRun = await followRun(redis, keys, stores.runId, () => undefined);
      expect(storesRun.operations['stores.put']?.delivered).toBe(8);
      // The catalog (tens of jobs at one at a time) is still going when the stores are done.
      expect(
        (await followRun(redis, keys, catalog.runId, () => undefined, AbortSignal.abort())).status,
      ).toBe('running');
      const catalogRun = await followRun(redis, keys, catalog.runId, () => undefined);
      for (const [id, c] of Object.entries(catalogRun.operations))
        expect(c.delivered, id).toBe(c.planned);
    } finally {
      await worker.close();
    }
    const after = await readStatus(redis, keys);
    expect(after.activeRuns).toEqual([]);
    expect(after.queues.bulk).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });
});
