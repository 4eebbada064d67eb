/**
 * A long job's progress: what the platform confirmed is committed and counted into the run as
 * the job goes (delivery.progressEveryMs), not only at its end; counted once, whatever happens to
 * the job after (its settle, or a worker killed and another attempt).
 */
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import { spawnFerry, workerReady, writeConfigFile, type FerryProcess } from './cli-process.js';
import { expectNothingOpen, quietLogger, tempDir, testConfig } from './delivery-fixtures.js';

const ITEMS = resolve(PROJECT_ROOT, 'examples/items.csv');
const PRICES = 'products.prices.patch';
const dir = tempDir('job-progress');
const prefixes: string[] = [];
const workers: FerryProcess[] = [];
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 11 });
  redis = new Redis(TEST_REDIS_URL);
});

afterEach(async () => {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  }
});

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  for (const p of prefixes) await deleteKeys(p);
  dir.remove();
  await expectNothingOpen();
});

/** One job carries every price of examples/items.csv; each answer comes 15 ms after its request. */
function setup(label: string) {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  sim.reset();
  sim.setFaults({ latency: [15, 15] });
  const delivery = { concurrency: 1, progressEveryMs: 100, lockDurationMs: 2000 };
  return {
    prefix,
    keys: deliveryKeys(prefix),
    config: testConfig(prefix, sim.url, join(dir.path, 'reports'), {
      ...delivery,
      stalledIntervalMs: 1000,
    }),
    configFile: writeConfigFile(
      dir.path,
      prefix,
      sim.url,
      delivery,
      TEST_REDIS_URL,
      `${label}.yaml`,
    ),
  };
}

async function runField(prefix: string, runId: string, field: string): Promise<number> {
  return Number((await redis.hget(deliveryKeys(prefix).run(runId), field)) ?? 0);
}

describe("a long job's progress", () => {
  it('counts deliveries into the run while the job goes, and each once', async () => {
    const { prefix, keys, config } = setup('progress');
    const { runId } = await startRun({
      config,
      redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: ITEMS },
    });
    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      const seen: number[] = [];
      await until('the run ends', async () => {
        const fields = await redis.hmget(keys.run(runId), 'status', `op:${PRICES}:delivered`);
        if (fields[0] === 'running') seen.push(Number(fields[1] ?? 0));
        return fields[0] !== 'running';
      });
      // The prices' one job was seen part-delivered while it ran: counted as it went.
      const planned = await runField(prefix, runId, `op:${PRICES}:planned`);
      expect(planned).toBe(56);
      expect(seen.some((n) => n > 0 && n < planned)).toBe(true);

      const run = await followRun(redis, keys, runId, () => undefined);
      expect(run.operations[PRICES]?.delivered).toBe(planned);
      // The run's timeline and the installation's metrics count each item once too.
      const fields = await redis.hgetall(keys.run(runId));
      const timeline = Object.entries(fields)
        .filter(([f]) => f.startsWith('tl:'))
        .reduce((n, [, v]) => n + Number(v), 0);
      const delivered = Object.values(run.operations).reduce((n, c) => n + c.delivered, 0);
      expect(timeline).toBe(delivered);
      const metric = await redis.hget(keys.metrics, `items|catalog|${PRICES}|delivered`);
      expect(Number(metric)).toBe(planned);
      expect(sim.stats().duplicates).toBe(0);
      // Its working keys go with the run.
      expect(await redis.exists(keys.runCounted(runId))).toBe(0);
    } finally {
      await worker.close();
    }
  });

  it('a worker killed in the middle of a job: another sends only what came after its progress', async () => {
    const { prefix, keys, config, configFile } = setup('killed');
    const a = spawnFerry(['worker'], configFile);
    workers.push(a);
    await workerReady(a);
    const { runId } = await startRun({
      config,
      redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: ITEMS },
    });
    let countedAtKill = 0;
    await until('worker A has counted 20 prices', async () => {
      countedAtKill = await runField(prefix, runId, `op:${PRICES}:delivered`);
      return countedAtKill >= 20;
    });
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    expect(countedAtKill).toBeLessThan(56);

    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      const run = await followRun(redis, keys, runId, () => undefined);
      expect(run.operations[PRICES]?.planned).toBe(56);
      // Counted once: the progress worker A counted is not counted again by the job's settle.
      expect(run.operations[PRICES]?.delivered).toBe(56);
      const metric = await redis.hget(keys.metrics, `items|catalog|${PRICES}|delivered`);
      expect(Number(metric)).toBe(56);
      // What A had counted was committed: the job's next attempt did not send it again.
      const resent = (sim.stats().byOperation[PRICES] ?? 0) - 56;
      expect(resent).toBeLessThan(countedAtKill);
      expect(sim.stats().duplicates).toBe(0);
    } finally {
      await worker.close();
    }
  });
});
