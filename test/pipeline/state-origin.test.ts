/**
 * The origin of committed state: which run committed an entity's version, and when. A run owns
 * its version (one field per run, not per item); an item a replay committed has its own; state
 * committed without a run id (or before origins were kept) still reads, with no origin.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stateKey } from '../../src/state/keys.js';
import { createStateStore, type StateStore } from '../../src/state/state-store.js';
import type { StateItem } from '../../src/pipeline/types.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('state-origin');
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

function item(key: string, version: number, hash = `h-${key}-${version}`): StateItem {
  return { resource: 'products', key, kind: 'upsert', hash, version, baseVersion: 0 };
}

it('records the run that committed a version, its first and last commit', async () => {
  const p = 'origin-run';
  const before = Date.now();
  await store.commit(p, [item('a', 1_700_000_000_123)], 'p-run-1');
  await new Promise((r) => setTimeout(r, 5));
  await store.commit(p, [item('b', 1_700_000_000_123)], 'p-run-1');
  const a = await store.origin(p, 'products', 'a', 1_700_000_000_123);
  const b = await store.origin(p, 'products', 'b', 1_700_000_000_123);
  expect(a?.runId).toBe('p-run-1');
  expect(a?.firstAt).toBeGreaterThanOrEqual(before - 1_000);
  expect(a!.lastAt).toBeGreaterThan(a!.firstAt);
  expect(b).toEqual(a);
  // One field for the run's version, none per item.
  expect(await redis.hkeys(`${prefix}:state-origin:{${p}}:products`)).toEqual(['v:1700000000123']);
});

it("gives an item another run committed (a replay) its own origin, and keeps the version's", async () => {
  const p = 'origin-replay';
  await store.commit(p, [item('a', 10)], 'p-run-1');
  await store.commit(p, [item('b', 10)], 'p-replay-2');
  expect((await store.origin(p, 'products', 'b', 10))?.runId).toBe('p-replay-2');
  expect((await store.origin(p, 'products', 'a', 10))?.runId).toBe('p-run-1');

  // A later run's version of b: the replay's field no longer speaks for it.
  await store.commit(p, [item('b', 20)], 'p-run-3');
  expect((await store.origin(p, 'products', 'b', 20))?.runId).toBe('p-run-3');
});

it('leaves the origin alone for stale or already committed items', async () => {
  const p = 'origin-stale';
  await store.commit(p, [item('a', 20)], 'p-run-2');
  const result = await store.commit(p, [item('a', 10), item('a', 20)], 'p-late-1');
  expect(result.stale.map((i) => i.version)).toEqual([10]);
  expect(result.committed.map((i) => i.version)).toEqual([20]);
  expect((await store.origin(p, 'products', 'a', 20))?.runId).toBe('p-run-2');
  expect(await store.origin(p, 'products', 'a', 10)).toBeUndefined();
});

it('reads state with no origin: committed without a run id, or in the format before origins', async () => {
  const p = 'origin-none';
  await store.commit(p, [item('a', 10)]);
  expect(await store.origin(p, 'products', 'a', 10)).toBeUndefined();
  await redis.hset(stateKey(prefix, p, 'products'), 'old', '5|h-old|{"name":"x"}');
  expect((await store.read(p, 'products', ['old'])).get('old')).toEqual({
    hash: 'h-old',
    version: 5,
    fieldHashes: { name: 'x' },
  });
  expect(await store.origin(p, 'products', 'old', 5)).toBeUndefined();
});
