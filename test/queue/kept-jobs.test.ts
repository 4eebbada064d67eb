/**
 * Completed jobs kept for the queue board (delivery.keepCompletedJobs): a run's jobs stay in its
 * lane's queue once settled, named by their run, and a later run that plans the very same request
 * again (one that failed on its last attempt with a 5xx: its item's version did not move, and the
 * same key is kept in case the platform applied it) still sends it: with ids unscoped, BullMQ would
 * drop that job as a duplicate of the kept one and the run would wait for it forever.
 */
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { followRun } from '../../src/runs/follow-run.js';
import { runJobId, type DeliveryJobData } from '../../src/runs/job-data.js';
import { deliveryKeys, queueName } from '../../src/runs/keys.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { until } from '../helpers/until.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const h = useDeliveryHarness('kept-jobs', { seed: 5 }, ({ dir }) =>
  generateItems(20, join(dir, 'items.csv'), 3),
);

describe('completed jobs', () => {
  it('are kept under their run, and never stop a later run sending the same request', async () => {
    const file = join(h.dir, 'items.csv');
    // One request a job, so a price request's job id in its run is its idempotency key; one
    // attempt, so a 5xx dead-letters its request at once.
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), {
      bundleSize: 1,
      attempts: 1,
    });
    const keys = deliveryKeys(h.prefix);
    const bulk = new Queue<DeliveryJobData>(queueName('bulk'), {
      connection: h.redis,
      prefix: keys.bullPrefix,
    });
    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      h.sim.setFaults({ failRate: 1 });
      const first = await startRun({
        config,
        redis: h.redis,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file },
      });
      const ran = await followRun(h.redis, keys, first.runId, () => undefined);
      expect(ran.deadLetters).toBeGreaterThan(0);

      // A job turns completed just after it settled: the last one may lag behind the run's end.
      const jobs = ran.stages.reduce((n, stage) => n + stage.jobs, 0);
      await until(
        'every job of the first run completed',
        async () => (await bulk.getCompleted(0, -1)).length === jobs,
      );
      const kept = await bulk.getCompleted(0, -1);
      expect(kept.length).toBeGreaterThan(1);
      for (const job of kept) expect(job.id).toBe(`${first.runId}.${runJobId(job)}`);

      // The same export again, the platform well again: the very same requests are planned.
      h.sim.setFaults({ failRate: 0 });
      const second = await startRun({
        config,
        redis: h.redis,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file },
      });
      const again = await followRun(h.redis, keys, second.runId, () => undefined);
      expect(again.status).toBe('succeeded');
      expect(again.deadLetters).toBe(0);
      // The job that sent it was the second run's own, under the same id in its run as the kept
      // one of the first run.
      const firstIds = new Set(kept.map((job) => runJobId(job)));
      await until('the second run to resend a job of the first', async () =>
        (await bulk.getCompleted(0, -1)).some(
          (job) => job.data.runId === second.runId && firstIds.has(runJobId(job)),
        ),
      );
    } finally {
      await worker.close();
      await bulk.close();
    }
  });
});
