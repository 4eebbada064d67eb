/**
 * Runs: one per pipeline at a time (and a run whose lock lapsed while it was planned does not
 * start); an interactive import is not queued behind a bulk catalog; `ferry status` shows the
 * queues and the runs in progress.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { isFerryError } from '../../src/errors/index.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { RETENTION_S } from '../../src/runs/finish-run.js';
import { readStatus } from '../../src/queue/status.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { runFerryHere as runFerry, writeConfigFile } from './cli-process.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const h = useDeliveryHarness('runs', { seed: 2, faults: { latency: [15, 25] } }, ({ dir }) =>
  generateItems(200, join(dir, 'items.csv'), 5),
);

describe('runs', () => {
  it('one per pipeline; an interactive import overtakes a bulk catalog', async () => {
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), {
      concurrency: 1,
      bundleSize: 5,
    });
    const logger = quietLogger();
    const keys = deliveryKeys(h.prefix);
    const catalog = await startRun({
      config,
      redis: h.redis,
      logger,
      pipeline: 'catalog',
      source: { file: join(h.dir, 'items.csv') },
    });

    let refused: unknown;
    try {
      await startRun({
        config,
        redis: h.redis,
        logger,
        pipeline: 'catalog',
        source: { file: join(h.dir, 'items.csv') },
      });
    } catch (error) {
      refused = error;
    }
    expect(isFerryError(refused) && refused.code).toBe('FERRY_RUN_ACTIVE');
    expect((refused as Error).message).toContain(catalog.runId);

    const stores = await startRun({
      config,
      redis: h.redis,
      logger,
      pipeline: 'stores',
      lane: 'interactive',
      source: { file: resolve(PROJECT_ROOT, 'examples/stores.csv') },
    });
    const status = await readStatus(h.redis, keys);
    expect(status.activeRuns.map((r) => r.runId).sort()).toEqual(
      [catalog.runId, stores.runId].sort(),
    );
    expect(status.queues.bulk.waiting).toBeGreaterThan(0);
    expect(status.queues.interactive.waiting).toBe(1);

    const worker = await startDeliveryWorker({ config, logger });
    try {
      const storesRun = await followRun(h.redis, keys, stores.runId, () => undefined);
      expect(storesRun.operations['stores.put']?.delivered).toBe(8);
      // The catalog (tens of jobs at one at a time) is still going when the stores are done.
      expect(
        (await followRun(h.redis, keys, catalog.runId, () => undefined, AbortSignal.abort()))
          .status,
      ).toBe('running');
      const catalogRun = await followRun(h.redis, keys, catalog.runId, () => undefined);
      for (const [id, c] of Object.entries(catalogRun.operations))
        expect(c.delivered, id).toBe(c.planned);
    } finally {
      await worker.close();
    }
    const after = await readStatus(h.redis, keys);
    expect(after.activeRuns).toEqual([]);
    expect(after.queues.bulk).toEqual({ waiting: 0, active: 0, delayed: 0, failed: 0 });
  });

  it('a run whose lock lapsed while it was planned enqueues nothing and leaves the lock alone', async () => {
    // A prefix of its own: the first test's stores run left nothing to send.
    const config = testConfig(`${h.prefix}-lapse`, h.sim.url, join(h.dir, 'reports'));
    const keys = deliveryKeys(`${h.prefix}-lapse`);
    const lockKey = keys.activeRun('stores');
    let runId = '';
    let lost: unknown;
    try {
      await startRun({
        config,
        redis: h.redis,
        logger: quietLogger(),
        pipeline: 'stores',
        source: { file: resolve(PROJECT_ROOT, 'examples/stores.csv') },
        onProgress: (progress) => {
          if (progress.phase !== 'done') return;
          // As after a stall past the lease: it lapsed and another run took the pipeline. The
          // same connection sends this before anything startRun sends next.
          void h.redis.get(lockKey).then((id) => (runId = id ?? ''));
          void h.redis.set(lockKey, 'stores-successor', 'PX', 60_000);
        },
      });
    } catch (error) {
      lost = error;
    }
    expect(isFerryError(lost) && lost.code).toBe('FERRY_RUN_LOCK_LOST');
    expect(runId).toMatch(/^stores-/);
    expect(await h.redis.get(lockKey)).toBe('stores-successor');
    expect(await h.redis.pttl(lockKey)).toBeGreaterThan(30_000);
    expect(
      await h.redis.exists(keys.run(runId), keys.runPayloads(runId), keys.runStage(runId, 0)),
    ).toBe(0);
    expect(await h.redis.sismember(keys.activeRuns, runId)).toBe(0);
    await h.redis.del(lockKey);
  });

  it('lists recent runs newest first (`ferry runs`), and drops index entries past retention', async () => {
    const keys = deliveryKeys(h.prefix);
    const stale = Date.now() - (RETENTION_S + 3600) * 1000;
    await h.redis.zadd(keys.runIndex, stale, 'catalog-long-gone');
    const configFile = writeConfigFile(h.dir, h.prefix, h.sim.url);

    const all = JSON.parse((await runFerry(['runs', '--json'], configFile)).stdout) as {
      runId: string;
      pipeline: string;
      status: string;
      deliveredItems: number;
      plannedItems: number;
    }[];
    // The first test's catalog and stores runs (the other test's prefix is its own); the gone
    // run's entry has no record, so it is not listed.
    expect(all.map((r) => r.pipeline)).toEqual(['stores', 'catalog']);
    expect(all.every((r) => r.deliveredItems === r.plannedItems && r.plannedItems > 0)).toBe(true);
    const one = await runFerry(['runs', '--pipeline', 'catalog', '--limit', '1'], configFile);
    expect(one.code).toBe(0);
    expect(one.stdout).toContain(all[1]?.runId);
    expect(one.stdout).not.toContain(all[0]?.runId);
    const bad = await runFerry(['runs', '--limit', 'ten'], configFile);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit');

    // Recording a run drops index entries older than a finished run's record lives.
    await startRun({
      config: testConfig(h.prefix, h.sim.url, join(h.dir, 'reports')),
      redis: h.redis,
      logger: quietLogger(),
      pipeline: 'users',
      source: { file: resolve(PROJECT_ROOT, 'examples/users.csv') },
    });
    expect(await h.redis.zscore(keys.runIndex, 'catalog-long-gone')).toBeNull();
    expect(await h.redis.zcard(keys.runIndex)).toBe(3);
  });
});
