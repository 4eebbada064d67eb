/**
 * A run belongs to the platform it was planned for, and only workers configured for that platform
 * deliver it (two simulators over TCP, workers in this process). A catalog delivered to A, then
 * `--resend-all` planned for B while the only worker is still configured for A: the worker used to
 * deliver B's run to A and commit A's confirmations into state bound to B. Now it sends nothing,
 * the run is blocked with the reason, and a worker for B delivers everything to B after a resume.
 * A run recorded before runs named their platform goes to any worker, as it did. A dead-letter
 * replay checks the state's platform as a run does.
 */
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { replayDeadLetters } from '../../src/orchestrate/replay.js';
import { resumeRun } from '../../src/orchestrate/resume-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { blockedField } from '../../src/runs/metrics/metric-fields.js';
import { buildRunReport, loadRun } from '../../src/runs/run-report.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { runBody } from '../../src/serve/pages/run-page.js';
import { normalisePlatformUrl, statePlatform } from '../../src/state/index.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import {
  expectAllDeliveredOnce,
  expectNothingOpen,
  quietLogger,
  runCatalog,
  tempDir,
  testConfig,
} from './delivery-fixtures.js';

const dir = tempDir('worker-platform');
const file = join(dir.path, 'items.csv');
const prefixes: string[] = [];
let simA: RunningSimulator;
let simB: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  simA = await startSimulator({ port: 0, seed: 3 });
  simB = await startSimulator({ port: 0, seed: 4 });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(40, file, 5);
});

afterAll(async () => {
  await simA?.close();
  await simB?.close();
  redis?.disconnect();
  for (const prefix of prefixes) await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

/** The same installation (prefix) configured for A and for B; no probes: only a resume resumes. */
function configs(label: string): { a: FerryConfig; b: FerryConfig; prefix: string } {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  const reports = join(dir.path, `reports-${label}`);
  const of = (url: string): FerryConfig => {
    const config = testConfig(prefix, url, reports, { concurrency: 2 });
    config.delivery.breaker = { threshold: 5, probeSeconds: 3600 };
    return config;
  };
  return { a: of(simA.url), b: of(simB.url), prefix };
}

describe('a run delivered only to its platform', () => {
  it('a worker for A sends nothing of a run planned for B and blocks it; a worker for B delivers it after a resume', async () => {
    const { a: configA, b: configB, prefix } = configs('wplat-run');
    const keys = deliveryKeys(prefix);
    const logger = quietLogger();
    const a = normalisePlatformUrl(simA.url);
    const b = normalisePlatformUrl(simB.url);
    const workerA = await startDeliveryWorker({ config: configA, logger });
    let runId: string;
    try {
      const first = await runCatalog(redis, configA, file);
      expect(first.status).toBe('succeeded');
      expect(first.platform).toBe(a);
      const requestsA = simA.stats().requests;

      // Planned for B (the state starts over on B), while the only worker sends to A.
      const started = await startRun({
        config: configB,
        redis,
        logger,
        pipeline: 'catalog',
        source: { file },
        resendAll: true,
      });
      expect(started.enqueued).toBe(true);
      runId = started.runId;
      await until(
        'the run blocked',
        async () => (await loadRun(redis, keys, runId)).status === 'blocked',
      );
      const blocked = await buildRunReport(redis, keys, createDeadLetterStore(redis, keys), runId);
      expect(blocked).toMatchObject({ platform: b, status: 'blocked', deadLettered: 0 });
      expect(blocked.items.delivered).toBe(0);
      for (const text of [a, `FERRY_BASE_URL=${b}`, `ferry resume ${runId}`]) {
        expect(blocked.blockedReason).toContain(text);
      }
      // Its page names its platform and why it waits.
      const page = runBody(blocked, 0, [], { name: 'op', role: 'operator' }, Date.now()).text;
      expect(page).toContain(`<span class="mono">${b}</span>`);
      expect(page).toContain(`ferry resume ${runId}`);
      expect(await redis.hget(keys.metrics, blockedField('catalog', 'other_platform'))).toBe('1');
      expect(simA.stats().requests).toBe(requestsA);
      expect(simB.stats().requests).toBe(0);
      expect(await createDeadLetterStore(redis, keys).count()).toBe(0);
    } finally {
      await workerA.close();
    }

    // A worker for B, and the operator's resume: everything goes to B, nothing more to A.
    const requestsA = simA.stats().requests;
    const workerB = await startDeliveryWorker({ config: configB, logger });
    try {
      expect(await resumeRun(redis, keys, runId)).toMatchObject({ status: 'running' });
      const run = await followRun(redis, keys, runId, () => undefined);
      expect(run.status).toBe('succeeded');
      expectAllDeliveredOnce(run.operations, simB);
      expect(simB.state('products')).toHaveLength(simA.state('products').length);
      expect(simA.stats().requests).toBe(requestsA);
      expect(await statePlatform(redis, prefix, 'catalog')).toBe(b);
      expect(await redis.hget(keys.metrics, blockedField('catalog', 'other_platform'))).toBe('0');
      // The state holds B's confirmations: planned for B again, nothing is left to send.
      const again = await startRun({
        config: configB,
        redis,
        logger,
        pipeline: 'catalog',
        source: { file },
      });
      expect(again.enqueued).toBe(false);
    } finally {
      await workerB.close();
    }
  });

  it('a run recorded before runs named their platform is delivered by any worker, as before', async () => {
    const { a: configA, b: configB, prefix } = configs('wplat-legacy');
    const keys = deliveryKeys(prefix);
    const logger = quietLogger();
    simA.reset();
    const { runId } = await startRun({
      config: configB,
      redis,
      logger,
      pipeline: 'catalog',
      source: { file },
    });
    await redis.hdel(keys.run(runId), 'platform');
    const worker = await startDeliveryWorker({ config: configA, logger });
    try {
      const run = await followRun(redis, keys, runId, () => undefined);
      expect(run.status).toBe('succeeded');
      expect(run.platform).toBeUndefined();
      expectAllDeliveredOnce(run.operations, simA);
    } finally {
      await worker.close();
    }
  });

  it('a dead-letter replay against another platform than its state stops before sending', async () => {
    const { a: configA, b: configB, prefix } = configs('wplat-replay');
    const keys = deliveryKeys(prefix);
    const logger = quietLogger();
    const dlq = createDeadLetterStore(redis, keys);
    // A's answers to the first test's requests (their idempotency keys) are forgotten.
    simA.reset();
    simA.setFaults({ rejectKeys: ['100003', '100007'] });
    const worker = await startDeliveryWorker({ config: configA, logger });
    try {
      expect((await runCatalog(redis, configA, file)).status).toBe('partial');
    } finally {
      await worker.close();
      simA.setFaults({ rejectKeys: [] });
    }
    const letters = await dlq.count();
    expect(letters).toBeGreaterThan(0);
    const requestsB = simB.stats().requests;

    await expect(
      replayDeadLetters({ config: configB, logger, selection: { all: true }, dryRun: false }),
    ).rejects.toMatchObject({
      code: 'FERRY_STATE_OTHER_PLATFORM',
      details: { statePlatform: normalisePlatformUrl(simA.url) },
    });
    expect(simB.stats().requests).toBe(requestsB);
    expect(await dlq.count()).toBe(letters);

    // Its own platform's replay goes (the refused one let the pipeline's lock go).
    const replayed = await replayDeadLetters({
      config: configA,
      logger,
      selection: { all: true },
      dryRun: false,
    });
    expect(replayed).toMatchObject({ failed: 0, stale: 0 });
    expect(await dlq.count()).toBe(0);
  });
});
