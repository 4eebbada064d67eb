import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStateStore, type StateStore } from '../../src/state/state-store.js';
import type { DeliveryItem } from '../../src/pipeline/types.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('state');
let redis: Redis;
let store: StateStore;

beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
  store = createStateStore(redis, prefix);
});

afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

function item(key: string, version: number, patch: Partial<DeliveryItem> = {}): DeliveryItem {
  return {
    resource: 'products',
    key,
    kind: 'upsert',
    payload: { externalId: key },
    hash: `h-${key}-${version}`,
    version,
    baseVersion: 0,
    ...patch,
  };
}

describe('state store', () => {
  it('commits newer versions, reports older ones as stale, and counts live entities', async () => {
    const p = 'commit';
    const first = await store.commit(p, [item('a', 10), item('b', 10), item('c', 10)]);
    expect(first.committed.map((i) => i.key)).toEqual(['a', 'b', 'c']);
    expect(first.stale).toEqual([]);
    expect(await store.count(p, 'products')).toBe(3);

    const second = await store.commit(p, [item('a', 20), item('b', 5)]);
    expect(second.committed.map((i) => i.key)).toEqual(['a']);
    expect(second.stale.map((i) => i.key)).toEqual(['b']);

    const states = await store.read(p, 'products', ['a', 'b', 'zzz']);
    expect(states.get('a')).toEqual({ hash: 'h-a-20', version: 20 });
    expect(states.get('b')).toEqual({ hash: 'h-b-10', version: 10 });
    expect(states.has('zzz')).toBe(false);
    expect(await store.count(p, 'products')).toBe(3);
  });

  it('treats a repeated commit of the same item as committed, and the same version with other content as stale', async () => {
    const p = 'repeat';
    await store.commit(p, [item('a', 10)]);
    const again = await store.commit(p, [item('a', 10)]);
    expect(again.committed).toHaveLength(1);
    const other = await store.commit(p, [item('a', 10, { hash: 'different' })]);
    expect(other.stale).toHaveLength(1);
    expect((await store.read(p, 'products', ['a'])).get('a')?.hash).toBe('h-a-10');
    expect(await store.count(p, 'products')).toBe(1);
  });

  it('leaves a tombstone on delete: not live, and an older upsert replayed later is stale', async () => {
    const p = 'tombstone';
    await store.commit(p, [item('a', 10), item('b', 10)]);
    const del = await store.commit(p, [
      item('a', 30, { kind: 'delete', hash: '', payload: { externalId: 'a' } }),
    ]);
    expect(del.committed).toHaveLength(1);
    expect(await store.count(p, 'products')).toBe(1);
    expect((await store.read(p, 'products', ['a'])).get('a')).toEqual({
      hash: '',
      version: 30,
      deleted: true,
    });

    const replay = item('a', 20);
    expect(await store.verdicts(p, [replay, item('b', 40), item('b', 10)])).toEqual([
      'stale',
      'send',
      'applied',
    ]);
    expect((await store.commit(p, [replay])).stale).toEqual([replay]);
    expect(await store.count(p, 'products')).toBe(1);

    // Created again later: live again.
    expect((await store.commit(p, [item('a', 50)])).committed).toHaveLength(1);
    expect(await store.count(p, 'products')).toBe(2);
    const live: string[] = [];
    for await (const batch of store.scanLive(p, 'products')) live.push(...batch.keys);
    expect(live.sort()).toEqual(['a', 'b']);
  });

  it('keeps field hashes, and keeps pipelines and resources apart', async () => {
    await store.commit('one', [
      item('k', 1, { fieldHashes: { name: 'n1', vendor: 'v1' } }),
      item('k', 1, { resource: 'categories', hash: 'cat' }),
    ]);
    expect((await store.read('one', 'products', ['k'])).get('k')).toEqual({
      hash: 'h-k-1',
      version: 1,
      fieldHashes: { name: 'n1', vendor: 'v1' },
    });
    expect((await store.read('one', 'categories', ['k'])).get('k')?.hash).toBe('cat');
    expect((await store.read('two', 'products', ['k'])).size).toBe(0);
    expect(await store.count('two', 'products')).toBe(0);
    const keys = await redis.keys(`${prefix}:*`);
    expect(keys.every((k) => k.startsWith(`${prefix}:state:`))).toBe(true);
  });

  it('reads and commits in large batches', async () => {
    const p = 'bulk';
    const items = Array.from({ length: 12_345 }, (_, i) => item(`k${i}`, 7));
    const result = await store.commit(p, items);
    expect(result.committed).toHaveLength(12_345);
    const states = await store.read(
      p,
      'products',
      items.map((i) => i.key),
    );
    expect(states.size).toBe(12_345);
    expect(states.get('k12344')?.version).toBe(7);
    expect(await store.count(p, 'products')).toBe(12_345);
  });
});
