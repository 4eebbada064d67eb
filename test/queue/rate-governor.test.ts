/**
 * delivery.ratePerSecond: auto on real Redis and the simulator: the platform's headers size the
 * window; without them the limit is found from 429s and shared by every gate; the interactive lane
 * goes first. Figures against targets are bench/rate-limit.ts's, not these tests'.
 */
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { executeRun } from '../../src/orchestrate/execute-run.js';
import { createRateGate } from '../../src/queue/worker/rate-gate.js';
import { readRateLimit } from '../../src/queue/worker/rate-limit-state.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { expectNothingOpen, quietLogger, tempDir, testConfig } from './delivery-fixtures.js';

const prefixes: string[] = [];
const dir = tempDir('governor');
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 3 });
  redis = new Redis(TEST_REDIS_URL);
});

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  for (const p of prefixes) await deleteKeys(p);
  dir.remove();
  await expectNothingOpen();
});

function newPrefix(): string {
  const p = uniquePrefix('governor');
  prefixes.push(p);
  return p;
}

const AUTO = { ratePerSecond: 'auto', bulkShare: 0.8 } as const;

async function catalogRun(prefix: string) {
  const config = testConfig(prefix, sim.url, dir.path, { concurrency: 4 });
  expect(config.delivery.ratePerSecond).toBe('auto'); // the default
  const report = await executeRun({
    config,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file: resolve(PROJECT_ROOT, 'examples/items.csv') },
    wait: true,
  });
  for (const counts of Object.values(report.operations)) {
    expect(counts.delivered).toBe(counts.planned);
  }
  return { config, report };
}

describe('delivery.ratePerSecond: auto', () => {
  it.each(['ietf', 'x'] as const)(
    "follows the platform's %s rate-limit headers: the stated quota sizes the window",
    async (mode) => {
      sim.reset();
      sim.setFaults({ rateLimit: 30, rateLimitHeaders: mode });
      const prefix = newPrefix();
      const { config } = await catalogRun(prefix);
      const keys = deliveryKeys(prefix);
      expect(await redis.hmget(keys.rateLimit, 'hq', 'hw')).toEqual(['30', '1000']);
      // The stated limit over a window stretched by the margin (3%, more after a 429).
      const now = await readRateLimit(redis, keys, config.delivery);
      expect(now?.source).toBe('headers');
      expect(now!.perSecond).toBeLessThanOrEqual(29.13);
      expect(now!.perSecond).toBeGreaterThanOrEqual(24);
      expect(sim.stats().duplicates).toBe(0);
    },
  );

  it('finds a limit the platform does not state from its 429s, and keeps it for the next run', async () => {
    sim.reset();
    sim.setFaults({ rateLimit: 8, rateLimitHeaders: 'none' });
    const prefix = newPrefix();
    const { config } = await catalogRun(prefix);
    const keys = deliveryKeys(prefix);
    const stats = sim.stats();
    expect(stats.rateLimited).toBeGreaterThan(0);
    expect(stats.duplicates).toBe(0);
    const found = await readRateLimit(redis, keys, config.delivery);
    expect(found?.source).toBe('discovered');
    // Slow start from 2/s doubled to 16, met the limit of 8 and came down.
    expect(found!.perSecond).toBeLessThan(16);
    expect(await redis.hget(keys.rateLimit, 'found')).toBe('1');
  });

  it('widens the margin, not the discovered rate, on a 429 while the platform states its limit', async () => {
    const keys = deliveryKeys(newPrefix());
    const gate = createRateGate(redis, keys, AUTO);
    try {
      await gate.observe({ 'ratelimit-policy': '"d";q=50;w=1', ratelimit: '"d";r=10;t=1' });
      await gate.refused();
      expect(await redis.hget(keys.rateLimit, 'grants')).toBeNull();
      expect(Number(await redis.hget(keys.rateLimit, 'hm'))).toBeCloseTo(0.05, 9);
      expect(await redis.hmget(keys.rateLimit, 'hq', 'hw')).toEqual(['50', '1000']);
    } finally {
      gate.close();
    }
  });

  it('pauses every gate when the headers say nothing is left until the reset', async () => {
    const keys = deliveryKeys(newPrefix());
    const a = createRateGate(redis, keys, AUTO);
    const b = createRateGate(redis, keys, AUTO);
    try {
      // 1 s left of a minute's quota (a reset of the whole window would not pause: see
      // rate-window.test.ts).
      await a.observe({ 'ratelimit-policy': '"d";q=100;w=60', ratelimit: '"d";r=0;t=1' });
      expect(await redis.pttl(keys.pause)).toBeGreaterThan(0);
      await b.pass('bulk');
      // Granted once the pause is over, however long the steps before took on a loaded machine.
      expect(await redis.pttl(keys.pause)).toBeLessThanOrEqual(0);
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('lanes inside the gate', () => {
  it('keeps bulk to its share while interactive requests ask, so they never wait a whole window', async () => {
    const keys = deliveryKeys(newPrefix());
    const options = { ratePerSecond: 21, bulkShare: 0.8 }; // 20 grants a second
    const bulk = createRateGate(redis, keys, options);
    const interactive = createRateGate(redis, keys, options);
    let stop = false;
    const bulkGrants: number[] = [];
    try {
      const bulkLoops = Array.from({ length: 6 }, async () => {
        while (!stop) {
          await bulk.pass('bulk');
          bulkGrants.push(Date.now());
        }
      });
      // Bulk alone fills the window.
      while (bulkGrants.length < 40) await new Promise((r) => setTimeout(r, 20));
      const waits: number[] = [];
      const asked = Date.now();
      for (let i = 0; i < 8; i++) {
        const t0 = Date.now();
        await interactive.pass('interactive');
        waits.push(Date.now() - t0);
        // A stream of interactive requests, not a burst: bulk has grants to take meanwhile (a
        // burst could be served before bulk's next ask, leaving nothing to check below).
        await new Promise((r) => setTimeout(r, 100));
      }
      const done = Date.now();
      stop = true;
      await Promise.all(bulkLoops);
      // The first interactive request may wait for the bulk grants of the window it came in; after
      // that, bulk keeps to 80% (16 a second) and the rest is the interactive lane's.
      expect(waits[0]).toBeLessThan(1_100);
      expect(Math.max(...waits.slice(1))).toBeLessThan(1_100);
      expect(done - asked).toBeLessThan(4_000);
      // The gate's window slides: each bulk grant given while interactive asked (from 100 ms on,
      // once the gate knows) had at most bulk's 16 grants in the second up to it, where bulk alone
      // takes 20. The timestamps are taken after the gate answered, late by up to a few tens of
      // ms on a busy machine: counted over the 900 ms up to each grant, with one grant to spare.
      const during = bulkGrants.filter((t) => t >= asked + 100 && t < done);
      const upTo = during.map((t) => bulkGrants.filter((u) => u > t - 900 && u <= t).length);
      expect(during.length).toBeGreaterThan(0);
      expect(Math.max(...upTo)).toBeLessThanOrEqual(17);
    } finally {
      stop = true;
      bulk.close();
      interactive.close();
    }
  });
});
