/**
 * The breaker for platform-wide refusals (real Redis, the simulator over TCP, a worker in this
 * process): with a wrong credential a run sends at most `threshold` requests, then one probe per
 * `probeSeconds`, dead-letters nothing and turns `blocked`; `ferry resume` lets it send again
 * (and the same refusals block it again); fixing the credential, the next probe resumes it by
 * itself and it completes with every item delivered once.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { blockedField, lastSuccessField } from '../../src/runs/metrics/metric-fields.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { followRun } from '../../src/runs/follow-run.js';
import { loadRun } from '../../src/runs/run-report.js';
import { resumeRun } from '../../src/orchestrate/resume-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { until } from '../helpers/until.js';
import {
  expectAllDeliveredOnce,
  quietLogger,
  testConfig,
  useDeliveryHarness,
} from './delivery-fixtures.js';

const THRESHOLD = 6;
const PROBE_SECONDS = 1;
const h = useDeliveryHarness('breaker', { seed: 5 }, () => generateItems(300, file, 3));
const file = join(h.dir, 'items.csv');

describe('the breaker for platform-wide refusals', () => {
  it('blocks a run refused by everyone after threshold requests, dead-letters nothing, probes, resumes on its own once the credential is right', async () => {
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { concurrency: 1 });
    config.delivery.breaker = { threshold: THRESHOLD, probeSeconds: PROBE_SECONDS };
    const keys = deliveryKeys(h.prefix);
    const logger = quietLogger();
    const dlq = createDeadLetterStore(h.redis, keys);
    h.sim.setToken('a-token-ferry-does-not-have');
    const worker = await startDeliveryWorker({ config, logger });
    try {
      const { runId } = await startRun({
        config,
        redis: h.redis,
        logger,
        pipeline: 'catalog',
        source: { file },
      });
      await until(
        'the run blocked',
        async () => (await loadRun(h.redis, keys, runId)).status === 'blocked',
      );
      const blockedAt = Date.now();
      const atBlock = h.sim.stats().requests;
      // One request at a time: the threshold-th refusal blocks it, nothing more went out.
      expect(atBlock).toBe(THRESHOLD);
      const blocked = await loadRun(h.redis, keys, runId);
      expect(blocked.blockedReason).toContain('401');
      expect(await h.redis.hget(keys.metrics, blockedField('catalog', 'unauthorized'))).toBe('1');

      // Probes: one request per probe interval at most, each refused, nothing dead-lettered.
      await until('two probes refused', () => h.sim.stats().requests >= atBlock + 2, 15_000);
      const probes = h.sim.stats().requests - atBlock;
      const intervals = Math.floor((Date.now() - blockedAt) / (PROBE_SECONDS * 1000)) + 1;
      expect(probes).toBeLessThanOrEqual(intervals);
      expect((await loadRun(h.redis, keys, runId)).status).toBe('blocked');
      expect(await dlq.count()).toBe(0);

      // `ferry resume` with the credential still wrong: it sends again and the next refusal
      // blocks it again.
      const beforeResume = h.sim.stats().requests;
      expect(await resumeRun(h.redis, keys, runId)).toMatchObject({ runId, status: 'running' });
      await until(
        'blocked again',
        async () =>
          (await loadRun(h.redis, keys, runId)).status === 'blocked' &&
          h.sim.stats().requests > beforeResume,
      );
      // One request, and perhaps a probe granted meanwhile.
      expect(h.sim.stats().requests - beforeResume).toBeLessThanOrEqual(2);
      await expect(resumeRun(h.redis, keys, 'catalog-nope')).rejects.toMatchObject({
        code: 'FERRY_NOT_FOUND',
      });

      // The right credential: the next probe passes and the run goes on to its end by itself.
      h.sim.setToken('dev-token');
      const run = await followRun(h.redis, keys, runId, () => undefined);
      // Rejected rows of the generated file make it partial; every planned item was delivered.
      expect(run.status).toBe(run.rejected > 0 ? 'partial' : 'succeeded');
      expect(run.deadLetters).toBe(0);
      expectAllDeliveredOnce(run.operations, h.sim);
      expect(await dlq.count()).toBe(0);
      expect(await h.redis.hget(keys.metrics, blockedField('catalog', 'unauthorized'))).toBe('0');
      expect(Number(await h.redis.hget(keys.metrics, lastSuccessField('catalog')))).toBe(
        run.finishedAt,
      );
      await expect(resumeRun(h.redis, keys, runId)).rejects.toMatchObject({
        code: 'FERRY_RUN_NOT_BLOCKED',
      });
    } finally {
      h.sim.setToken('dev-token');
      await worker.close();
    }
  });
});
