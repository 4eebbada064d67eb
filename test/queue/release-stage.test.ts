/**
 * Releasing a run's stages when a releaser dies: a releaser killed while holding the stage's lease
 * holds the run up for one lease at most (a worker's supervisor then releases the stage), and a
 * chunk is never trimmed from the stage list twice.
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { deliveryKeys } from '../../src/queue/keys.js';
import { followRun } from '../../src/queue/runs/follow-run.js';
import { RELEASE_LEASE_MS, trimReleased } from '../../src/queue/runs/release-stage.js';
import { startRun } from '../../src/queue/runs/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { acquireLease } from '../../src/redis/lease.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import {
  expectAllDeliveredOnce,
  expectNothingOpen,
  quietLogger,
  tempDir,
  testConfig,
} from './delivery-fixtures.js';

const prefix = uniquePrefix('release');
const dir = tempDir('release');
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 11 });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(60, join(dir.path, 'items.csv'), 4);
});

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('stage release', () => {
  it(
    'goes on within one lease when the releaser died holding it',
    { timeout: 30_000 }, // a lease of a minute, as there was, would hold the run past it
    async () => {
      const config = testConfig(prefix, sim.url, join(dir.path, 'reports'), { bundleSize: 10 });
      const keys = deliveryKeys(prefix);
      const { runId } = await startRun({
        config,
        redis,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file: join(dir.path, 'items.csv') },
      });
      expect(Number(await redis.hget(keys.run(runId), 'stageCount'))).toBeGreaterThan(1);
      // A releaser that took the lease and was killed: nobody renews it, it lapses on its own.
      const dead = await acquireLease(redis, keys.runReleaseLock(runId), RELEASE_LEASE_MS);
      dead?.stopRenewing();
      expect(dead).toBeDefined();

      const worker = await startDeliveryWorker({ config, logger: quietLogger() });
      try {
        const run = await followRun(redis, keys, runId, () => undefined);
        expectAllDeliveredOnce(run.operations, sim);
      } finally {
        await worker.close();
      }
    },
  );

  it('trims a released chunk from the stage list once, however often it is told', async () => {
    const list = `${prefix}:stage-list`;
    await redis.rpush(list, 'j1', 'j2', 'j3', 'j4', 'j5');
    await trimReleased(redis, list, ['j1', 'j2']);
    // A releaser whose lease lapsed trims the chunk it had read again: nothing more goes.
    await trimReleased(redis, list, ['j1', 'j2']);
    expect(await redis.lrange(list, 0, -1)).toEqual(['j3', 'j4', 'j5']);
    await trimReleased(redis, list, ['j3', 'j4', 'j5']);
    expect(await redis.exists(list)).toBe(0);
  });
});
