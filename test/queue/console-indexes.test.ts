/**
 * The indexes the console reads by: dead letters by pipeline, run, operation and item key, and
 * runs by pipeline. They answer searches, counts and pages without reading every entry; entries
 * and runs written before the indexes existed are found too (indexed on the first read that needs
 * them); a removed dead letter leaves every index.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../src/runs/dead-letters/dead-letter.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { indexRun, recentRuns } from '../../src/runs/run-index.js';
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
    // The store names each entry (ids are its own): d1..d4 are what it answered.
    const [d1, d2, d3, d4] = (await dlq.add([
      letter('d1', 1, 'catalog', 'run-a', '007'),
      letter('d2', 2, 'catalog', 'run-a', '7'),
      letter('d3', 3, 'catalog', 'run-b', '008'),
      letter('d4', 4, 'stores', 'run-c', '007'),
    ])) as [string, string, string, string];
    const ids = (entries: DeadLetter[]) => entries.map((e) => e.id);
    expect(ids(await dlq.list({ key: '007' }))).toEqual([d1, d4]);
    expect(ids(await dlq.list({ key: '007', pipeline: 'catalog' }))).toEqual([d1]);
    expect(ids(await dlq.list({ runId: 'run-a' }))).toEqual([d1, d2]);
    expect(ids(await dlq.list({ operationId: 'stores.put' }))).toEqual([d4]);
    expect(await dlq.count({ pipeline: 'catalog' })).toBe(3);
    expect(await dlq.count({ pipeline: 'users' })).toBe(0);
    const page = await dlq.page({ pipeline: 'catalog' }, 1, 1);
    expect({ ids: ids(page.entries), total: page.total }).toEqual({ ids: [d2], total: 3 });
    const all = await dlq.page({}, 2, 10);
    expect({ ids: ids(all.entries), total: all.total }).toEqual({ ids: [d3, d4], total: 4 });

    expect(await dlq.remove([d1])).toBe(1);
    expect(ids(await dlq.list({ key: '007' }))).toEqual([d4]);
    expect(await dlq.count({ runId: 'run-a' })).toBe(1);
    expect(await redis.zscore(keys.dlqBy('operation', 'products.put'), d1)).toBeNull();
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

describe('dead letters by item', () => {
  it('keeps one open entry per (pipeline, operation, key): a later failure updates it, an id never comes back', async () => {
    const dlq = createDeadLetterStore(redis, keys);
    const first = letter('x', 10, 'catalog', 'run-1', 'SKU-9');
    const [id] = (await dlq.add([first])) as [string];
    // The same failure written again (a job retried after a crash): nothing changes.
    expect(await dlq.add([first])).toEqual([id]);
    expect((await dlq.get(id))?.failures).toBe(1);

    const later = {
      ...letter('y', 20, 'catalog', 'run-2', 'SKU-9'),
      message: 'refused again',
      items: [{ ...first.items[0]!, source: { file: 'night-2.csv', line: 7 } }],
    };
    expect(await dlq.add([later])).toEqual([id]);
    const updated = await dlq.get(id);
    expect(updated).toMatchObject({ id, failures: 2, runId: 'run-2', message: 'refused again' });
    expect(updated?.items[0]?.source).toEqual({ file: 'night-2.csv', line: 7 });
    expect(await dlq.count({ pipeline: 'catalog', key: 'SKU-9' })).toBe(1);
    expect(await dlq.count({ runId: 'run-1' })).toBe(0);
    expect((await dlq.list({ runId: 'run-2' })).map((e) => e.id)).toContain(id);

    // Another pipeline or operation with the same key is another item.
    const [other] = (await dlq.add([letter('z', 21, 'stores', 'run-3', 'SKU-9')])) as [string];
    expect(other).not.toBe(id);

    // Purged: the next failure of the item opens a new entry under a new id.
    expect(await dlq.remove([id])).toBe(1);
    const [reopened] = (await dlq.add([letter('w', 30, 'catalog', 'run-4', 'SKU-9')])) as [string];
    expect(reopened).not.toBe(id);
    expect(await dlq.get(id)).toBeUndefined();
    expect(await dlq.get(reopened)).toMatchObject({ failures: 1, runId: 'run-4' });
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
