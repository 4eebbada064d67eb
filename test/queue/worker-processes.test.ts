/**
 * `ferry worker` processes: a worker killed with SIGKILL in the middle of a run has its jobs taken
 * over by another (every item delivered, none twice); on SIGTERM its active jobs go back to the
 * queue after the requests they have out, and it exits 0; a worker whose requests outlast its
 * shutdown timeout stops anyway and leaves them to another.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { replayDeadLetters } from '../../src/orchestrate/replay.js';
import { deliveryKeys, queueName } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { runJobId } from '../../src/runs/job-data.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import {
  killLeft,
  spawnFerry,
  workerReady,
  writeConfigFile,
  type FerryProcess,
} from './cli-process.js';
import {
  expectAllDeliveredOnce,
  expectNothingOpen,
  quietLogger,
  tempDir,
  testConfig,
} from './delivery-fixtures.js';

const dir = tempDir('workers');
const prefixes: string[] = [];
const workers: FerryProcess[] = [];
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 5 });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(400, join(dir.path, 'items.csv'), 3);
});

afterEach(async () => await killLeft(workers));

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  for (const p of prefixes) await deleteKeys(p);
  dir.remove();
  await expectNothingOpen();
});

/** A fresh prefix and config files; the simulator reset, then answering after `latency` ms. */
function setup(
  label: string,
  latency: [number, number],
  delivery: Parameters<typeof testConfig>[3] = {},
) {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  sim.reset();
  // After the reset, which puts the simulator's faults back to none.
  sim.setFaults({ latency });
  const configFile = writeConfigFile(dir.path, prefix, sim.url, delivery);
  const config = testConfig(prefix, sim.url, join(dir.path, 'reports'), {
    lockDurationMs: 2000,
    stalledIntervalMs: 1000,
    ...delivery,
  });
  return { prefix, configFile, config };
}

async function settledItems(prefix: string, runId: string): Promise<number> {
  const fields = await redis.hgetall(deliveryKeys(prefix).run(runId));
  return Object.entries(fields)
    .filter(([k]) => /:(delivered|failed|stale)$/.test(k))
    .reduce((n, [, v]) => n + Number(v), 0);
}

describe('ferry worker processes', () => {
  it('recover the jobs of a worker killed with SIGKILL', async () => {
    const { prefix, configFile, config } = setup('kill', [5, 15], { bundleSize: 10 });
    const a = spawnFerry(['worker'], configFile);
    const b = spawnFerry(['worker'], configFile);
    workers.push(a, b);
    await Promise.all([workerReady(a), workerReady(b)]);

    const { runId } = await startRun({
      config,
      redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(dir.path, 'items.csv') },
    });
    const bulk = new Queue(queueName('bulk'), {
      connection: redis,
      prefix: deliveryKeys(prefix).bullPrefix,
    });
    const nameOfA = `${hostname()}:${a.child.pid}`;
    await until('a job active in worker A', async () =>
      (await bulk.getActive()).some((job) => job.processedBy === nameOfA),
    );
    await bulk.close();
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');

    const run = await followRun(redis, deliveryKeys(prefix), runId, () => undefined);
    expect(run.status).toBe('partial'); // the generated file has a few rejectable records
    expectAllDeliveredOnce(run.operations, sim);
    expect(sim.state('prices')).toHaveLength(
      run.operations['products.prices.patch']?.planned ?? -1,
    );

    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  });

  it('on SIGTERM hand their jobs back after the requests they have out, then exit 0', async () => {
    const { prefix, configFile, config } = setup('term', [40, 60], { bundleSize: 10 });
    const w = spawnFerry(['worker'], configFile);
    workers.push(w);
    await workerReady(w);
    const { runId } = await startRun({
      config,
      redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(dir.path, 'items.csv') },
    });
    const bulk = new Queue(queueName('bulk'), {
      connection: redis,
      prefix: deliveryKeys(prefix).bullPrefix,
    });
    try {
      // Wait until the price bundles (10 requests of ~50 ms each) are being delivered.
      await until(
        'price jobs active',
        async () => ((await sim.stats().byOperation['products.prices.patch']) ?? 0) > 5,
      );
      expect(await bulk.getActiveCount()).toBeGreaterThan(0);
      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
      expect(w.stderr()).toContain('ferry worker: stopped.');
      // The jobs it had were handed back, not abandoned (an abandoned job would stay active until
      // its lock expired) nor sent to their end: each is queued again with the requests it had
      // not sent, and what the platform confirmed before is counted.
      expect(await bulk.getActiveCount()).toBe(0);
      const queued = [...(await bulk.getWaiting()), ...(await bulk.getDelayed())];
      const handedBack = queued.filter((job) => job.data.requests !== undefined);
      expect(handedBack.length).toBeGreaterThan(0);
      // Handed back, not failed: no attempt spent.
      for (const job of handedBack) expect(job.attemptsMade).toBe(0);
      expect(await settledItems(prefix, runId)).toBeGreaterThan(0);

      // The latency kept jobs active at SIGTERM; the rest need not take its time.
      sim.setFaults({ latency: [5, 15] });
      const next = spawnFerry(['worker'], configFile);
      workers.push(next);
      const run = await followRun(redis, deliveryKeys(prefix), runId, () => undefined);
      expectAllDeliveredOnce(run.operations, sim);
    } finally {
      await bulk.close();
    }
  });

  it('stop at the shutdown timeout, leaving jobs still in flight to another worker', async () => {
    // Each request takes 3 s: far longer than the 200 ms this worker is given to stop.
    const { prefix, config } = setup('timeout', [3000, 3000], { bundleSize: 10 });
    const keys = deliveryKeys(prefix);
    const a = await startDeliveryWorker({ config, logger: quietLogger() });
    const { runId } = await startRun({
      config,
      redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(dir.path, 'items.csv') },
    });
    await until('requests in flight', () => a.active() > 0);
    expect(await a.close(200)).toBe(false);
    // Stopped before any of its requests was answered: nothing settled yet.
    expect(await settledItems(prefix, runId)).toBe(0);

    // The abandoned requests still reach the platform: once they are applied, another worker's
    // resend under the same idempotency key is answered as done (before, it is "in progress").
    await until('the abandoned requests applied', () => sim.state('categories').length === 8);
    sim.setFaults({ latency: [5, 15] });
    const b = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      const run = await followRun(redis, keys, runId, () => undefined);
      expectAllDeliveredOnce(run.operations, sim);
    } finally {
      await b.close();
    }
  });

  it('dead-letter the jobs that stall too often, so the run still ends; a replay delivers them', async () => {
    const { prefix, configFile, config } = setup('stall', [40, 60], {
      bundleSize: 10,
      maxStalledCount: 0,
    });
    const a = spawnFerry(['worker', '--lane', 'bulk'], configFile);
    workers.push(a);
    await workerReady(a);
    const { runId } = await startRun({
      config,
      redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(dir.path, 'items.csv') },
    });
    const keys = deliveryKeys(prefix);
    const bulk = new Queue(queueName('bulk'), { connection: redis, prefix: keys.bullPrefix });
    const nameOfA = `${hostname()}:${a.child.pid}`;
    await until('a price job active in worker A', async () =>
      // A bundle of price requests (a bundle's id in its run starts with b): it takes a while.
      (await bulk.getActive()).some(
        (job) => job.processedBy === nameOfA && runJobId(job).startsWith('b'),
      ),
    );
    await bulk.close();
    a.child.kill('SIGKILL');
    await a.exited;

    // The latency kept a price job active at the kill; the rest need not take its time.
    sim.setFaults({ latency: [5, 15] });
    const b = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      const run = await followRun(redis, keys, runId, () => undefined);
      const prices = run.operations['products.prices.patch'];
      expect(prices?.failed).toBeGreaterThan(0);
      expect((prices?.delivered ?? 0) + (prices?.failed ?? 0)).toBe(prices?.planned);
      const letters = await createDeadLetterStore(redis, keys).list({ runId });
      expect(letters.length).toBeGreaterThan(0);
      expect(letters.every((l) => l.errorCode === 'FERRY_DELIVERY_FAILED')).toBe(true);
      expect(letters[0]?.message).toContain('stalled');
    } finally {
      await b.close();
    }

    const replay = await replayDeadLetters({
      config,
      logger: quietLogger(),
      selection: { runId },
      dryRun: false,
    });
    expect(replay.failed).toBe(0);
    expect(replay.delivered).toBeGreaterThan(0);
    expect(sim.state('prices')).toHaveLength(
      (await followRun(redis, keys, runId, () => undefined)).operations['products.prices.patch']
        ?.planned ?? -1,
    );
    expect(sim.stats().duplicates).toBe(0);
  });
});
