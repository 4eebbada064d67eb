/**
 * Cancelling a run (real Redis, the simulator over TCP, a worker in this process, `ferry cancel`
 * through the CLI's main()): once it returns nothing more of the run is sent, what was delivered is
 * committed and counted, the pipeline is free, and the next run of the same file sends exactly
 * the rest, each item once.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { createStateStore } from '../../src/state/state-store.js';
import { deliveryKeys, LANES } from '../../src/runs/keys.js';
import { openQueues } from '../../src/queue/queues.js';
import { cancelRun, type CancelOutcome } from '../../src/queue/cancel-run.js';
import { followRun } from '../../src/runs/follow-run.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { recentRuns } from '../../src/runs/run-index.js';
import { lineOf } from '../../src/runs/run-line.js';
import { buildRunReport, loadRun } from '../../src/runs/run-report.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { until } from '../helpers/until.js';
import { runFerryHere as runFerry, writeConfigFile } from './cli-process.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const PRICES = 'products.prices.patch';
// ~35 ms a request, two at a time: the price stage takes ~7 s, time enough for `ferry cancel`.
const h = useDeliveryHarness('cancel', { seed: 4, faults: { latency: [30, 40] } }, () =>
  generateItems(400, file, 11),
);
const file = join(h.dir, 'items.csv');

describe('ferry cancel', () => {
  it('stops the run at once, keeps and counts what was delivered, frees the pipeline; the next run sends the rest once', async () => {
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), {
      concurrency: 2,
      bundleSize: 5,
    });
    const configFile = writeConfigFile(h.dir, h.prefix, h.sim.url);
    const keys = deliveryKeys(h.prefix);
    const logger = quietLogger();
    const worker = await startDeliveryWorker({ config, logger });
    try {
      const { runId } = await startRun({
        config,
        redis: h.redis,
        logger,
        pipeline: 'catalog',
        source: { file },
      });
      await until('the price stage under way', () => h.sim.state('prices').length >= 20);

      const dry = await cancelRun({
        redis: h.redis,
        keys,
        notify: { config, redis: h.redis, keys, logger },
        reportsDir: h.dir,
        runId,
        dryRun: true,
      });
      expect(dry).toMatchObject({ runId, dryRun: true, status: 'running' });
      expect(dry.unsettledJobs).toBeGreaterThan(0);
      expect((await loadRun(h.redis, keys, runId)).status).toBe('running');

      const cancelled = await runFerry(['cancel', runId, '--json'], configFile);
      const requestsAtCancel = h.sim.stats().requests;
      expect(cancelled.code).toBe(0);
      const outcome = JSON.parse(cancelled.stdout) as CancelOutcome;
      expect(outcome).toMatchObject({ runId, status: 'cancelled', inFlight: 0 });
      expect(outcome.unsettledJobs).toBeGreaterThan(0);

      await until("the worker took the run's queued jobs and dropped them", async () => {
        const queues = openQueues(h.redis, keys);
        try {
          const counts = await Promise.all(
            LANES.map((lane) =>
              queues[lane].getJobCounts('waiting', 'prioritized', 'delayed', 'active'),
            ),
          );
          return counts.every((c) => Object.values(c).every((n) => n === 0));
        } finally {
          await queues.close();
        }
      });
      expect(h.sim.stats().requests).toBe(requestsAtCancel);
      const prices = outcome.report.operations[PRICES];
      if (!prices) throw new Error('no price counts in the report');
      // Counts add up: every planned item settled, the unsent ones counted cancelled.
      const items = outcome.report.items;
      expect(items.settled).toBe(items.planned);
      expect(items.settled).toBe(items.delivered + items.failed + items.stale + items.cancelled);
      expect(prices.cancelled).toBeGreaterThan(0);
      expect(prices.delivered + prices.failed + prices.stale + prices.cancelled).toBe(
        prices.planned,
      );
      expect(prices.delivered).toBeGreaterThan(0);
      expect(prices.delivered).toBeLessThan(prices.planned);
      // Jobs in flight at the cancel finished and counted: the count is what the platform has.
      expect(prices.delivered).toBe(h.sim.state('prices').length);
      expect(await createStateStore(h.redis, h.prefix).count('catalog', 'prices')).toBe(
        prices.delivered,
      );
      expect(await h.redis.exists(keys.activeRun('catalog'))).toBe(0);
      expect(await h.redis.sismember(keys.activeRuns, runId)).toBe(0);
      const written = JSON.parse(readFileSync(outcome.report.files?.json ?? '', 'utf8'));
      expect(written.status).toBe('cancelled');

      await expect(
        cancelRun({
          redis: h.redis,
          keys,
          notify: { config, redis: h.redis, keys, logger },
          reportsDir: h.dir,
          runId,
        }),
      ).rejects.toMatchObject({
        code: 'FERRY_RUN_FINISHED',
      });

      const next = await startRun({
        config,
        redis: h.redis,
        logger,
        pipeline: 'catalog',
        source: { file },
      });
      const run = await followRun(h.redis, keys, next.runId, () => undefined);
      expect(run.operations[PRICES]).toMatchObject({
        planned: prices.planned - prices.delivered,
        delivered: prices.planned - prices.delivered,
      });
      // Delivered before the cancel: unchanged since, so none planned.
      expect(run.operations['products.put']).toMatchObject({ planned: 0, delivered: 0 });
      expect(h.sim.state('prices')).toHaveLength(prices.planned);
      expect(h.sim.stats().duplicates).toBe(0);
    } finally {
      await worker.close();
    }
  });

  it('holds the pipeline while a request of the run is in flight, says so, and ends the run when it settles: one call is enough', async () => {
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
    const keys = deliveryKeys(h.prefix);
    const logger = quietLogger();
    h.sim.setFaults({ latency: [1_500, 1_500] });
    const worker = await startDeliveryWorker({ config, logger });
    try {
      const stores = resolve(PROJECT_ROOT, 'examples/stores.csv');
      const requestsBefore = h.sim.stats().requests;
      const { runId } = await startRun({
        config,
        redis: h.redis,
        logger,
        pipeline: 'stores',
        source: { file: stores },
      });
      await until('its one request on the wire', () => h.sim.stats().requests > requestsBefore);
      const first = await cancelRun({
        redis: h.redis,
        keys,
        notify: { config, redis: h.redis, keys, logger },
        reportsDir: h.dir,
        runId,
        timeoutMs: 100,
      });
      expect(first).toMatchObject({ status: 'cancelling', inFlight: 1 });
      expect(first.report.inFlight).toBe(1);
      const [line] = (await recentRuns(h.redis, keys, { pipeline: 'stores', limit: 1 })).map(
        lineOf,
      );
      expect(line?.statusText).toBe('cancelling: 1 request in flight');
      expect(await h.redis.get(keys.activeRun('stores'))).toBe(runId);
      await expect(
        startRun({ config, redis: h.redis, logger, pipeline: 'stores', source: { file: stores } }),
      ).rejects.toMatchObject({ code: 'FERRY_RUN_ACTIVE' });

      // No second call: the request in flight settles and the run ends (within until's 30 s),
      // its pipeline freed.
      await until(
        'the run cancelled',
        async () => (await loadRun(h.redis, keys, runId)).status === 'cancelled',
      );
      expect(await h.redis.exists(keys.activeRun('stores'))).toBe(0);
      const second = {
        report: await buildRunReport(h.redis, keys, createDeadLetterStore(h.redis, keys), runId),
      };
      const counts = second.report.operations['stores.put'];
      expect(counts?.delivered).toBe(h.sim.state('stores').length);
      expect(counts?.delivered).toBeGreaterThan(0);
      expect(await h.redis.exists(keys.activeRun('stores'))).toBe(0);
    } finally {
      h.sim.setFaults({ latency: [30, 40] });
      await worker.close();
    }
  });

  it('says what to do for a run that does not exist (exit 2) or is over (exit 1)', async () => {
    const configFile = writeConfigFile(h.dir, h.prefix, h.sim.url);
    const missing = await runFerry(['cancel', 'catalog-nope'], configFile);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('catalog-nope');
    const keys = deliveryKeys(h.prefix);
    const [finished] = await h.redis.zrange(keys.runIndex, '-1', '-1');
    const over = await runFerry(['cancel', finished ?? '', '--json'], configFile);
    expect(over.code).toBe(1);
    expect(over.stdout + over.stderr).toContain('FERRY_RUN_FINISHED');
  });
});
