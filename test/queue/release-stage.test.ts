/**
 * Releasing a run's stages when a releaser dies: a releaser killed while holding the stage's lease
 * holds the run up for one lease at most (a worker's supervisor then releases the stage), and a
 * chunk is never trimmed from the stage list twice.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { RELEASE_LEASE_MS, trimReleased } from '../../src/queue/release-stage.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { acquireLease } from '../../src/redis/lease.js';
import {
  expectAllDeliveredOnce,
  quietLogger,
  testConfig,
  useDeliveryHarness,
} from './delivery-fixtures.js';

const h = useDeliveryHarness('release', { seed: 11 }, ({ dir }) =>
  generateItems(60, join(dir, 'items.csv'), 4),
);

describe('stage release', () => {
  it(
    'goes on within one lease when the releaser died holding it',
    { timeout: 30_000 }, // a lease of a minute, as there was, would hold the run past it
    async () => {
      const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
      const keys = deliveryKeys(h.prefix);
      const { runId } = await startRun({
        config,
        redis: h.redis,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file: join(h.dir, 'items.csv') },
      });
      expect(Number(await h.redis.hget(keys.run(runId), 'stageCount'))).toBeGreaterThan(1);
      // A releaser that took the lease and was killed: nobody renews it, it lapses on its own.
      const dead = await acquireLease(h.redis, keys.runReleaseLock(runId), RELEASE_LEASE_MS);
      dead?.stopRenewing();
      expect(dead).toBeDefined();

      const worker = await startDeliveryWorker({ config, logger: quietLogger() });
      try {
        const run = await followRun(h.redis, keys, runId, () => undefined);
        expectAllDeliveredOnce(run.operations, h.sim);
      } finally {
        await worker.close();
      }
    },
  );

  it('trims a released chunk from the stage list once, however often it is told', async () => {
    const list = `${h.prefix}:stage-list`;
    await h.redis.rpush(list, 'j1', 'j2', 'j3', 'j4', 'j5');
    await trimReleased(h.redis, list, ['j1', 'j2']);
    // A releaser whose lease lapsed trims the chunk it had read again: nothing more goes.
    await trimReleased(h.redis, list, ['j1', 'j2']);
    expect(await h.redis.lrange(list, 0, -1)).toEqual(['j3', 'j4', 'j5']);
    await trimReleased(h.redis, list, ['j3', 'j4', 'j5']);
    expect(await h.redis.exists(list)).toBe(0);
  });
});
