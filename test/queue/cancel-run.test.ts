/**
 * Cancelling a run (real Redis, the simulator over TCP, a worker in this process, `ferry cancel`
 * as a child process): once it returns nothing more of the run is sent, what was delivered is
 * committed and counted, the pipeline is free, and the next run of the same file sends exactly
 * the rest, each item once.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { createStateStore } from '../../src/pipeline/state-store.js';
import { deliveryKeys } from '../../src/queue/keys.js';
import { cancelRun, type CancelOutcome } from '../../src/queue/runs/cancel-run.js';
import { followRun } from '../../src/queue/runs/follow-run.js';
import { loadRun } from '../../src/queue/runs/run-report.js';
import { startRun } from '../../src/queue/runs/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import { runFerry, writeConfigFile } from './cli-process.js';
import { expectNothingOpen, quietLogger, tempDir, testConfig } from './delivery-fixtures.js';

const prefix = uniquePrefix('cancel');
const dir = tempDir('cancel');
const file = join(dir.path, 'items.csv');
const PRICES = 'products.prices.patch';
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  // ~35 ms a request, two at a time: the price stage takes ~7 s, time enough to spawn `ferry cancel`.
  sim = await startSimulator({ port: 0, seed: 4, faults: { latency: [30, 40] } });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(400, file, 11);
});

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('ferry cancel', () => {
  it('stops the run at once, keeps and counts what was delivered, frees the pipeline; the next run sends the rest once', async () => {
    const config = testConfig(prefix, sim.url, join(dir.path, 'reports'), {
      concurrency: 2,
      bundleSize: 5,
    });
    const configFile = writeConfigFile(dir.path, prefix, sim.url);
    const keys = deliveryKeys(prefix);
    const logger = quietLogger();
    const worker = await startDeliveryWorker({ config, logger });
    try {
      const { runId } = await startRun({
        config,
        redis,
        logger,
        pipeline: 'catalog',
        source: { file },
      });
      await until('the price stage under way', () => sim.state('prices').length >= 20);

      const dry = await cancelRun({ redis, keys, reportsDir: dir.path, runId, dryRun: true });
      expect(dry).toMatchObject({ runId, dryRun: true, status: 'running' });
      expect(dry.unsettledJobs).toBeGreaterThan(0);
      expect((await loadRun(redis, keys, runId)).status).toBe('running');

      const cancelled = await runFerry(['cancel', runId, '--json'], configFile);
      const requestsAtCancel = sim.stats().requests;
      expect(cancelled.code).toBe(0);
      const outcome = JSON.parse(cancelled.stdout) as CancelOutcome;
      expect(outcome).toMatchObject({ runId, status: 'cancelled', inFlight: 0 });
      expect(outcome.unsettledJobs).toBeGreaterThan(0);

      await sleep(300); // the worker takes the run's queued jobs and drops them
      expect(sim.stats().requests).toBe(requestsAtCancel);
      const prices = outcome.report.operations[PRICES];
      if (!prices) throw new Error('no price counts in the report');
      expect(prices.delivered).toBeGreaterThan(0);
      expect(prices.delivered).toBeLessThan(prices.planned);
      // Jobs in flight at the cancel finished and counted: the count is what the platform has.
      expect(prices.delivered).toBe(sim.state('prices').length);
      expect(await createStateStore(redis, prefix).count('catalog', 'prices')).toBe(
        prices.delivered,
      );
      expect(await redis.exists(keys.activeRun('catalog'))).toBe(0);
      expect(await redis.sismember(keys.activeRuns, runId)).toBe(0);
      const written = JSON.parse(readFileSync(outcome.report.files?.json ?? '', 'utf8'));
      expect(written.status).toBe('cancelled');

      await expect(cancelRun({ redis, keys, reportsDir: dir.path, runId })).rejects.toMatchObject({
        code: 'FERRY_RUN_FINISHED',
      });

      const next = await startRun({ config, redis, logger, pipeline: 'catalog', source: { file } });
      const run = await followRun(redis, keys, next.runId, () => undefined);
      expect(run.operations[PRICES]).toMatchObject({
        planned: prices.planned - prices.delivered,
        delivered: prices.planned - prices.delivered,
      });
      // Delivered before the cancel: unchanged since, so none planned.
      expect(run.operations['products.put']).toMatchObject({ planned: 0, delivered: 0 });
      expect(sim.state('prices')).toHaveLength(prices.planned);
      expect(sim.stats().duplicates).toBe(0);
    } finally {
      await worker.close();
    }
  });

  it('holds the pipeline while a job of the run is in flight; cancelling again finishes it', async () => {
    const config = testConfig(prefix, sim.url, join(dir.path, 'reports'));
    const keys = deliveryKeys(prefix);
    const logger = quietLogger();
    sim.setFaults({ latency: [1_500, 1_500] });
    const worker = await startDeliveryWorker({ config, logger });
    try {
      const stores = resolve(PROJECT_ROOT, 'examples/stores.csv');
      const requestsBefore = sim.stats().requests;
      const { runId } = await startRun({
        config,
        redis,
        logger,
        pipeline: 'stores',
        source: { file: stores },
      });
      await until('its one request on the wire', () => sim.stats().requests > requestsBefore);
      const first = await cancelRun({ redis, keys, reportsDir: dir.path, runId, timeoutMs: 100 });
      expect(first).toMatchObject({ status: 'cancelling', inFlight: 1 });
      expect(await redis.get(keys.activeRun('stores'))).toBe(runId);
      await expect(
        startRun({ config, redis, logger, pipeline: 'stores', source: { file: stores } }),
      ).rejects.toMatchObject({ code: 'FERRY_RUN_ACTIVE' });

      const second = await cancelRun({ redis, keys, reportsDir: dir.path, runId });
      expect(second.status).toBe('cancelled');
      const counts = second.report.operations['stores.put'];
      expect(counts?.delivered).toBe(sim.state('stores').length);
      expect(counts?.delivered).toBeGreaterThan(0);
      expect(await redis.exists(keys.activeRun('stores'))).toBe(0);
    } finally {
      sim.setFaults({ latency: [30, 40] });
      await worker.close();
    }
  });

  it('says what to do for a run that does not exist (exit 2) or is over (exit 1)', async () => {
    const configFile = writeConfigFile(dir.path, prefix, sim.url);
    const missing = await runFerry(['cancel', 'catalog-nope'], configFile);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('catalog-nope');
    const keys = deliveryKeys(prefix);
    const [finished] = await redis.zrange(keys.runIndex, '-1', '-1');
    const over = await runFerry(['cancel', finished ?? '', '--json'], configFile);
    expect(over.code).toBe(1);
    expect(over.stdout + over.stderr).toContain('FERRY_RUN_FINISHED');
  });
});
