/**
 * Against a faulty platform (20% 5xx, 5% reset connections, 5% applied-then-reset, a rate limit)
 * every valid item is delivered, none twice, and nothing is dead-lettered.
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { createDeadLetterStore } from '../../src/queue/dlq/dead-letter-store.js';
import { deliveryKeys } from '../../src/queue/keys.js';
import { executeRun } from '../../src/queue/runs/execute-run.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { quietLogger, tempDir, testConfig, expectNothingOpen } from './delivery-fixtures.js';

const prefix = uniquePrefix('faults');
const dir = tempDir('faults');
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    seed: 42,
    faults: { failRate: 0.2, resetRate: 0.05, applyThenFailRate: 0.05, rateLimit: 150 },
  });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(300, join(dir.path, 'items.csv'), 11);
});

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('delivery against a faulty platform', () => {
  it('delivers every valid item exactly once', async () => {
    const config = testConfig(prefix, sim.url, join(dir.path, 'reports'), { concurrency: 4 });
    const report = await executeRun({
      config,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(dir.path, 'items.csv') },
      wait: true,
    });
    const stats = sim.stats();
    // The faults did happen...
    expect(stats.faults.failed).toBeGreaterThan(0);
    expect(stats.faults.reset).toBeGreaterThan(0);
    expect(stats.faults.appliedThenFailed).toBeGreaterThan(0);
    expect(stats.rateLimited).toBeGreaterThan(0);
    // ...and yet every planned item arrived, once.
    expect(report.deadLettered).toBe(0);
    for (const [id, counts] of Object.entries(report.operations)) {
      expect(counts.planned, id).toBeGreaterThan(0);
      expect(counts.delivered, id).toBe(counts.planned);
    }
    expect(stats.duplicates).toBe(0);
    expect(sim.state('products')).toHaveLength(report.operations['products.put']?.planned ?? -1);
    expect(sim.state('prices')).toHaveLength(
      report.operations['products.prices.patch']?.planned ?? -1,
    );
    expect(await createDeadLetterStore(redis, deliveryKeys(prefix)).count()).toBe(0);
  });
});
