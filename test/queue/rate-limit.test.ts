/**
 * 429 with Retry-After: no request reaches the platform before the time it gave, and waiting
 * spends no attempt (the jobs have a single attempt here, and still every item is delivered).
 * The configured rate (delivery.ratePerSecond) is one budget for every worker.
 */
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { executeRun } from '../../src/orchestrate/execute-run.js';
import { createRateGate } from '../../src/queue/worker/rate-gate.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { quietLogger, tempDir, testConfig, expectNothingOpen } from './delivery-fixtures.js';

const prefixes: string[] = [];
const dir = tempDir('ratelimit');
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 9 });
  redis = new Redis(TEST_REDIS_URL);
});

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  for (const p of prefixes) await deleteKeys(p);
  dir.remove();
  await expectNothingOpen();
});

function fixedRate(ratePerSecond: number) {
  return { ratePerSecond, bulkShare: 0.8 };
}

function newPrefix(): string {
  const p = uniquePrefix('ratelimit');
  prefixes.push(p);
  return p;
}

describe('rate limits', () => {
  it.each(['seconds', 'date'] as const)(
    'obeys 429 Retry-After (%s) without spending an attempt',
    async (retryAfter) => {
      sim.reset();
      sim.setFaults({ rateLimit: 20, retryAfter });
      // No rate of Ferry's own (auto would start slow and meet no 429): only the platform's.
      const config = testConfig(newPrefix(), sim.url, dir.path, {
        attempts: 1,
        concurrency: 1,
        ratePerSecond: 0,
      });
      const report = await executeRun({
        config,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file: resolve(PROJECT_ROOT, 'examples/items.csv') },
        wait: true,
      });
      const log = sim.requests();
      const limited = log.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      for (const r of limited) {
        // The window reopens at the next whole second; the first request after the 429 comes then.
        const reopens = (Math.floor(r.at / 1000) + 1) * 1000;
        const next = log.find((n) => n.at > r.at);
        expect(next?.at ?? Infinity).toBeGreaterThanOrEqual(reopens);
      }
      expect(report.deadLettered).toBe(0);
      for (const counts of Object.values(report.operations))
        expect(counts.delivered).toBe(counts.planned);
    },
  );

  it('shares delivery.ratePerSecond between gates (processes) through Redis', async () => {
    const keys = deliveryKeys(newPrefix());
    const gates = [
      createRateGate(redis, keys, fixedRate(10)),
      createRateGate(redis, keys, fixedRate(10)),
    ];
    try {
      const started = Date.now();
      const times: number[] = [];
      await Promise.all(
        gates.map(async (gate) => {
          for (let i = 0; i < 10; i += 1) {
            await gate.pass('bulk');
            times.push(Date.now() - started);
          }
        }),
      );
      // 20 requests at 10/s (9 granted in any second): the last ones cannot pass before ~1 s.
      times.sort((a, b) => a - b);
      expect(times[19]).toBeGreaterThanOrEqual(900);
    } finally {
      for (const g of gates) g.close();
    }
  });

  it('never grants more than the rate in any window of a second and its margin, across gates', async () => {
    const keys = deliveryKeys(newPrefix());
    const gates = [
      createRateGate(redis, keys, fixedRate(20)),
      createRateGate(redis, keys, fixedRate(20)),
    ];
    try {
      const times: number[] = [];
      await Promise.all(
        gates.flatMap((gate) =>
          Array.from({ length: 4 }, async () => {
            for (let i = 0; i < 6; i += 1) {
              await gate.pass('bulk');
              times.push(performance.now());
            }
          }),
        ),
      );
      times.sort((a, b) => a - b);
      // 20 grants per 1030 ms (the margin, scripts/rate-window.ts): 48 grants need more than two
      // seconds, and no window of a second holds 21.
      expect(times.at(-1)! - times[0]!).toBeGreaterThan(2000);
      for (let i = 0; i + 20 < times.length; i += 1) {
        expect(times[i + 20]! - times[i]!).toBeGreaterThanOrEqual(900); // the client sees grants a round trip late
      }
    } finally {
      for (const g of gates) g.close();
    }
  });

  it('a pause set by one gate holds every gate', async () => {
    const keys = deliveryKeys(newPrefix());
    const a = createRateGate(redis, keys, fixedRate(0));
    const b = createRateGate(redis, keys, fixedRate(1000));
    try {
      await a.pause(600);
      await b.pass('bulk');
      // Granted once the pause is over, however long the steps before took on a loaded machine.
      expect(await redis.pttl(keys.pause)).toBeLessThanOrEqual(0);
    } finally {
      a.close();
      b.close();
    }
  });
});
