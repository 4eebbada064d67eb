/**
 * The indexes the console reads by: dead letters by pipeline, run, operation and item key, and
 * runs by pipeline. They answer searches, counts and pages without reading every entry; entries
 * and runs written before the indexes existed are found too (indexed on the first read that needs
 * them); a removed dead letter leaves every index.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../src/queue/dlq/dead-letter.js';
import { createDeadLetterStore } from '../../src/queue/dlq/dead-letter-store.js';
import { deliveryKeys } from '../../src/queue/keys.js';
import { indexRun, recentRuns } from '../../src/queue/runs/run-index.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('console-indexes');
const keys = deliveryKeys(prefix);
let redis: Redis;

beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

function letter(id: string, at: number, pipeline: string, runId: string, key: string): DeadLetter {
  return {
    id,
    at,
    runId,
    pipeline,
    operationId: pipeline === 'stores' ? 'stores.put' : 'products.put',
    pathParams: {},
    idempotencyKey: `k-${id}`,
    items: [{ resource: 'r', key, kind: 'upsert', payload: {}, hash: 'h', version: 1 }],
    request: { method: 'PUT', path: '/x', headers: {} },
    errorCode: 'FERRY_HTTP_PERMANENT',
    message: 'refused',
    attempts: 1,
    jobId: `j-${id}`,
  } as DeadLetter;
}

describe('dead letters', () => {
  it('searches, counts and pages by pipeline, run, operation and key', async () => {
    const dlq = createDeadLetterStore(redis, keys);
    await dlq.add([
      letter('d1', 1, 'catalog', 'run-a', '007'),
      letter('d2', 2, 'catalog', 'run-a', '7'),
      letter('d3', 3, 'catalog', 'run-b', '008'),
      letter('d4', 4, 'stores', 'run-c', '007'),
    ]);
    const ids = (entries: DeadLetter[]) => entries.map((e) => e.id);
    expect(ids(await dlq.list({ key: '007' }))).toEqual(['d1', 'd4']);
    expect(ids(await dlq.list({ key: '007', pipeline: 'catalog' }))).toEqual(['d1']);
    expect(ids(await dlq.list({ runId: 'run-a' }))).toEqual(['d1', 'd2']);
    expect(ids(await dlq.list({ operationId: 'stores.put' }))).toEqual(['d4']);
    expect(await dlq.count({ pipeline: 'catalog' })).toBe(3);
    expect(await dlq.count({ pipeline: 'users' })).toBe(0);
    const page = await dlq.page({ pipeline: 'catalog' }, 1, 1);
    expect({ ids: ids(page.entries), total: page.total }).toEqual({ ids: ['d2'], total: 3 });
    const all = await dlq.page({}, 2, 10);
    expect({ ids: ids(all.entries), total: all.total }).toEqual({ ids: ['d3', 'd4'], total: 4 });

    expect(await dlq.remove(['d1'])).toBe(1);
    expect(ids(await dlq.list({ key: '007' }))).toEqual(['d4']);
    expect(await dlq.count({ runId: 'run-a' })).toBe(1);
    expect(await redis.zscore(keys.dlqBy('operation', 'products.put'), 'd1')).toBeNull();
  });

  it('finds the entries written before the indexes existed', async () => {
    const oldPrefix = uniquePrefix('console-indexes-old');
    const old = deliveryKeys(oldPrefix);
    const entry = letter('d9', 9, 'users', 'run-z', '0042');
    await redis
      .multi()
      .hset(old.dlqEntries, entry.id, JSON.stringify(entry))
      .zadd(old.dlqIndex, '9', entry.id)
      .exec();
    const dlq = createDeadLetterStore(redis, old);
    expect(await dlq.count({ pipeline: 'users' })).toBe(1);
    expect((await dlq.list({ key: '0042' })).map((e) => e.id)).toEqual(['d9']);
    expect(await dlq.count({ key: '42' })).toBe(0);
    await deleteKeys(oldPrefix);
  });
});

describe('runs by pipeline', () => {
  it('lists one pipeline newest first, runs from before the index included', async () => {
    const record = (id: string, pipeline: string) =>
      redis.hset(keys.run(id), {
        id,
        pipeline,
        kind: 'sync',
        lane: 'bulk',
        status: 'succeeded',
        trigger: 'cli',
        version: 1,
        rows: 0,
        rejected: 0,
        createdAt: 1,
        stages: '[]',
        currentStage: 0,
      });
    // Recorded before the per-pipeline index: only in the whole index.
    await record('old-catalog', 'catalog');
    await redis.zadd(keys.runIndex, Date.now() - 2_000, 'old-catalog');
    await record('new-stores', 'stores');
    await record('new-catalog', 'catalog');
    await indexRun(
      redis.multi(),
      keys,
      { id: 'new-stores', pipeline: 'stores' },
      Date.now() - 1_000,
    ).exec();
    await indexRun(
      redis.multi(),
      keys,
      { id: 'new-catalog', pipeline: 'catalog' },
      Date.now(),
    ).exec();
    const ids = async (pipeline?: string) =>
      (await recentRuns(redis, keys, { ...(pipeline ? { pipeline } : {}), limit: 10 })).map(
        (r) => r.id,
      );
    expect(await ids('catalog')).toEqual(['new-catalog', 'old-catalog']);
    expect(await ids('stores')).toEqual(['new-stores']);
    expect(await ids()).toEqual(['new-catalog', 'new-stores', 'old-catalog']);
  });
});
