/**
 * A long job's progress: what the platform confirmed is committed and counted into the run as
 * the job goes (delivery.progressEveryMs), not only at its end; counted once, whatever happens to
 * the job after (its settle, or a worker killed and another attempt); and a cancel stops the job
 * there, not at the end of its bundle.
 */
import { join, resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { cancelRun } from '../../src/queue/cancel-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import {
  killLeft,
  spawnFerry,
  workerReady,
  writeConfigFile,
  type FerryProcess,
} from './cli-process.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const ITEMS = resolve(PROJECT_ROOT, 'examples/items.csv');
const PRICES = 'products.prices.patch';
/** The prices of examples/items.csv: one job carries them all (delivery.bundleSize 100). */
const PRICE_COUNT = 56;

const h = useDeliveryHarness('job-progress', { seed: 11 });
const prefixes: string[] = [];
const workers: FerryProcess[] = [];
afterEach(async () => await killLeft(workers));
afterAll(async () => {
  for (const p of prefixes) await deleteKeys(p);
});

/** A prefix of its own; each answer comes 15 ms after its request, one request at a time. */
function setup(label: string) {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  h.sim.reset();
  h.sim.setFaults({ latency: [15, 15] });
  const delivery = { concurrency: 1, progressEveryMs: 100, lockDurationMs: 2000 };
  return {
    keys: deliveryKeys(prefix),
    config: testConfig(prefix, h.sim.url, join(h.dir, 'reports'), {
      ...delivery,
      stalledIntervalMs: 1000,
    }),
    configFile: writeConfigFile(
      h.dir,
      prefix,
      h.sim.url,
      delivery,
      TEST_REDIS_URL,
      `${label}.yaml`,
    ),
  };
}

async function startCatalog(config: ReturnType<typeof setup>['config']): Promise<string> {
  const logger = quietLogger();
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger,
    pipeline: 'catalog',
    source: { file: ITEMS },
  });
  return runId;
}

/** The run, its metrics and the platform each counted every price once. */
async function expectPricesCountedOnce(keys: ReturnType<typeof deliveryKeys>, runId: string) {
  const run = await followRun(h.redis, keys, runId, () => undefined);
  expect(run.operations[PRICES]?.planned).toBe(PRICE_COUNT);
  expect(run.operations[PRICES]?.delivered).toBe(PRICE_COUNT);
  const metric = await h.redis.hget(keys.metrics, `items|catalog|${PRICES}|delivered`);
  expect(Number(metric)).toBe(PRICE_COUNT);
  expect(h.sim.stats().duplicates).toBe(0);
  return run;
}

describe("a long job's progress", () => {
  it('counts deliveries into the run while the job goes, and each once', async () => {
    const { keys, config } = setup('progress');
    const runId = await startCatalog(config);
    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      const seen: number[] = [];
      await until('the run ends', async () => {
        const fields = await h.redis.hmget(keys.run(runId), 'status', `op:${PRICES}:delivered`);
        if (fields[0] === 'running') seen.push(Number(fields[1] ?? 0));
        return fields[0] !== 'running';
      });
      // The prices' one job was seen part-delivered while it ran: counted as it went.
      expect(seen.some((n) => n > 0 && n < PRICE_COUNT)).toBe(true);

      const run = await expectPricesCountedOnce(keys, runId);
      // The run's chart counts each item once too.
      const fields = await h.redis.hgetall(keys.run(runId));
      const timeline = Object.entries(fields)
        .filter(([f]) => f.startsWith('tl:'))
        .reduce((n, [, v]) => n + Number(v), 0);
      expect(timeline).toBe(Object.values(run.operations).reduce((n, c) => n + c.delivered, 0));
      // Its working keys go with the run.
      expect(await h.redis.exists(keys.runCounted(runId))).toBe(0);
    } finally {
      await worker.close();
    }
  });

  it('a cancel stops a job at its next checkpoint: the rest of its bundle is not sent', async () => {
    const { keys, config } = setup('cancelled');
    const runId = await startCatalog(config);
    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      await until('10 prices delivered', async () => {
        const n = await h.redis.hget(keys.run(runId), `op:${PRICES}:delivered`);
        return Number(n) >= 10;
      });
      const logger = quietLogger();
      const outcome = await cancelRun({
        redis: h.redis,
        keys,
        notify: { config, redis: h.redis, keys, logger },
        reportsDir: h.dir,
        runId,
        timeoutMs: 10_000,
      });
      expect(outcome.status).toBe('cancelled');
      const prices = outcome.report.operations[PRICES];
      // The rest of the bundle was never sent: counted cancelled (the old worker sent it all), and
      // the platform has exactly what was sent.
      expect(prices?.cancelled).toBeGreaterThan(0);
      expect((prices?.delivered ?? 0) + (prices?.cancelled ?? 0)).toBe(PRICE_COUNT);
      expect(h.sim.stats().byOperation[PRICES]).toBe(prices?.delivered);
      expect(h.sim.state('prices')).toHaveLength(prices?.delivered ?? -1);
    } finally {
      await worker.close();
    }
  });

  it('a worker killed in the middle of a job: another sends only what came after its progress', async () => {
    const { keys, config, configFile } = setup('killed');
    const a = spawnFerry(['worker'], configFile);
    workers.push(a);
    await workerReady(a);
    const runId = await startCatalog(config);
    let countedAtKill = 0;
    await until('worker A has counted 20 prices', async () => {
      countedAtKill = Number(await h.redis.hget(keys.run(runId), `op:${PRICES}:delivered`));
      return countedAtKill >= 20;
    });
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    expect(countedAtKill).toBeLessThan(PRICE_COUNT);

    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      // Counted once: what worker A counted is not counted again by the job's settle.
      await expectPricesCountedOnce(keys, runId);
      // What A had counted was committed: the job's next attempt did not send it again.
      const resent = (h.sim.stats().byOperation[PRICES] ?? 0) - PRICE_COUNT;
      expect(resent).toBeLessThan(countedAtKill);
    } finally {
      await worker.close();
    }
  });
});
