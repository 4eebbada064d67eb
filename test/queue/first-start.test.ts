/**
 * A run's job sends on its first start without reading state first; a job that was started before
 * (it failed, or stalled and was taken over) reads state, so what its earlier start committed is
 * not sent again.
 */
import { join, resolve } from 'node:path';
import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { createStateStore } from '../../src/state/state-store.js';
import { runJobId, type DeliveryJobData } from '../../src/runs/job-data.js';
import { deliveryKeys, queueName } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { jobWork } from '../../src/queue/worker/job-work.js';
import { createRedis } from '../../src/redis/connection.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const h = useDeliveryHarness('first-start', { seed: 3 });

describe('a job started before', () => {
  it('does not send again what its earlier start committed', async () => {
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { concurrency: 1 });
    const keys = deliveryKeys(h.prefix);
    const logger = quietLogger();
    const { runId } = await startRun({
      config,
      redis: h.redis,
      logger,
      pipeline: 'stores',
      source: { file: resolve(PROJECT_ROOT, 'examples/stores.csv') },
    });

    const lane =
      (await h.redis.hget(keys.run(runId), 'lane')) === 'interactive' ? 'interactive' : 'bulk';
    // An earlier start that had everything confirmed and committed, then died before settling.
    const store = createStateStore(h.redis, h.prefix);
    const connection = createRedis(TEST_REDIS_URL);
    let crashed = 0;
    const earlier = new Worker<DeliveryJobData>(
      queueName(lane),
      async (job) => {
        const work = await jobWork(h.redis, keys, runJobId(job), job.data);
        const requests = work.kind === 'send' ? work.payload.requests : [];
        await store.commit(
          job.data.pipeline,
          requests.flatMap((r) => r.items),
        );
        crashed += 1;
        throw new Error('died before settling');
      },
      {
        connection,
        prefix: keys.bullPrefix,
        concurrency: 1,
        settings: { backoffStrategy: () => 10 },
      },
    );
    try {
      await new Promise<void>((done) => earlier.once('failed', () => done()));
    } finally {
      await earlier.close();
      connection.disconnect();
    }
    expect(crashed).toBeGreaterThan(0);

    const before = h.sim.stats().requests;
    const worker = await startDeliveryWorker({ config, logger });
    try {
      const run = await followRun(h.redis, keys, runId, () => undefined);
      expect(run.status).not.toBe('running');
      expect(run.deadLetters).toBe(0);
      const stores = run.operations['stores.put'];
      expect(stores?.planned).toBe(8);
      expect(stores?.delivered).toBe(8);
    } finally {
      await worker.close();
    }
    // Every item was committed by the earlier start: the platform got no request at all.
    expect(h.sim.stats().requests).toBe(before);
    expect(h.sim.state('stores')).toEqual([]);
  });
});
