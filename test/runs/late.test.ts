/**
 * What feeds a run's forecast and what it decides, against the real Redis with the test's clock:
 * the workers' per-run request counts land in the run's record (never in a run that is gone), and
 * a run forecast to end after its pipeline's window queues `late` once, and only then.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { REQUEST_BUCKET_MS, startRunRequestCounter } from '../../src/runs/metrics/run-requests.js';
import { openNotifyQueue } from '../../src/runs/notify/notify-queue.js';
import { notifyIfLate } from '../../src/runs/notify/notify-run.js';
import { loadRun } from '../../src/runs/run-report.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { quietLogger, tempDir, testConfig } from '../queue/delivery-fixtures.js';

const prefix = uniquePrefix('late');
const keys = deliveryKeys(prefix);
const dir = tempDir('late');
let redis: Redis;
let config: FerryConfig;

/** 22:00 UTC: tonight's run starts. */
const START = Date.UTC(2026, 10, 25, 22, 0);
const SECOND = 1_000;

beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
  const pipelines = join(dir.path, 'pipelines');
  mkdirSync(pipelines);
  const catalog = parse(
    readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8'),
  ) as Record<string, unknown>;
  const notify = [{ url: 'http://127.0.0.1:9/late', on: ['late'] }];
  for (const [name, window] of Object.entries({
    early: { endsAt: '06:00' },
    roomy: { endsAt: '14:00', tz: 'UTC' },
    none: undefined,
  })) {
    writeFileSync(join(pipelines, `${name}.yaml`), stringify({ ...catalog, window, notify }));
  }
  const base = testConfig(prefix, 'http://127.0.0.1:9', join(dir.path, 'reports'));
  config = { ...base, pipelines: { ...base.pipelines, dir: pipelines } };
});

afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
  dir.remove();
});

/**
 * A running run of `pipeline` that plans 100,000 requests and, by `now`, sent 2 a second for
 * `seconds` seconds (as the workers' counters write it).
 */
async function recordRun(
  runId: string,
  pipeline: string,
  now: number,
  seconds: number,
  more: Record<string, string> = {},
): Promise<void> {
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline,
    kind: 'sync',
    status: 'running',
    createdAt: START,
    stages: JSON.stringify([
      { index: 0, operationIds: ['products.prices.patch'], jobs: 1000, requests: 100_000 },
    ]),
    sent: 2 * seconds,
    sentSince: now - seconds * SECOND,
    ...more,
  };
  for (let t = now - seconds * SECOND; t < now; t += SECOND) {
    const field = `rq:${Math.floor(t / REQUEST_BUCKET_MS)}`;
    fields[field] = Number(fields[field] ?? 0) + 2;
  }
  await redis.hset(keys.run(runId), fields);
}

async function lateJobs(): Promise<string[]> {
  const queue = openNotifyQueue(redis, keys);
  try {
    return (await queue.getJobs(['waiting', 'prioritized', 'delayed'])).map((j) => j.id ?? '');
  } finally {
    await queue.close();
  }
}

describe('the late check', () => {
  const ctx = () => ({ config, redis, keys, logger: quietLogger() });
  const now = START + 120 * SECOND;

  it('queues `late` once for a run forecast past its window, not for the others', async () => {
    // 99,760 requests left at 2/s: about 13.9 h, so 11:53 tomorrow.
    await recordRun('early-1', 'early', now, 120);
    await recordRun('roomy-1', 'roomy', now, 120);
    await recordRun('none-1', 'none', now, 120);
    await recordRun('early-measuring', 'early', now, 5);
    await recordRun('early-replay', 'early', now, 120, { kind: 'replay' });
    await recordRun('early-blocked', 'early', now, 120, { status: 'blocked' });
    const told: Record<string, boolean> = {};
    for (const id of [
      'early-1',
      'roomy-1',
      'none-1',
      'early-measuring',
      'early-replay',
      'early-blocked',
    ]) {
      told[id] = await notifyIfLate(ctx(), id, now);
    }
    expect(told).toEqual({
      'early-1': true,
      'roomy-1': false,
      'none-1': false,
      'early-measuring': false,
      'early-replay': false,
      'early-blocked': false,
    });
    expect(await redis.hget(keys.run('early-1'), 'lateAt')).toBe(String(now));
    // Asked again, by this process or another worker's housekeeping: told already.
    expect(await notifyIfLate(ctx(), 'early-1', now + 2 * SECOND)).toBe(false);
    expect(await lateJobs()).toEqual(['early-1-late-0']);
  });

  it('judges a run that answered nothing over a whole minute late: no finish in sight', async () => {
    const stalled = START + 600 * SECOND;
    await recordRun('roomy-stalled', 'roomy', START + 300 * SECOND, 300);
    expect(await notifyIfLate(ctx(), 'roomy-stalled', stalled)).toBe(true);
  });
});

describe('the workers’ request counts', () => {
  it('land in the run’s record each second, and never bring back a run that is gone', async () => {
    await redis.hset(keys.run('counted'), { id: 'counted', status: 'running' });
    const counter = startRunRequestCounter(redis, keys);
    const before = Date.now();
    for (let i = 0; i < 25; i++) counter.count('counted', true);
    for (let i = 0; i < 3; i++) counter.count('gone', true);
    await counter.close();
    const run = await loadRun(redis, keys, 'counted');
    expect(run.sent.requests).toBe(25);
    expect(run.sent.since).toBeGreaterThanOrEqual(before);
    expect(Object.values(run.sent.perBucket)).toEqual([25]);
    expect(await redis.exists(keys.run('gone'))).toBe(0);
  });
});
