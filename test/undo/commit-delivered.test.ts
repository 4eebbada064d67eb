/**
 * Delivery's commit of confirmed items (payload-history.ts commit): state and the payload history
 * in one script per resource and chunk, on real Redis; a patch of an entity with a payload kept is
 * recorded whole, merged with it.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createPayloadHistory,
  type BeforeImage,
  type PayloadHistory,
} from '../../src/state/before-images/payload-history.js';
import { createStateStore } from '../../src/state/state-store.js';
import type { StateItem } from '../../src/state/types.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('commit-delivered');
let redis: Redis;
let history: PayloadHistory;

beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
  history = createPayloadHistory(redis, prefix, 14);
});

afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

function item(key: string, version: number, kind: StateItem['kind'], baseVersion = 0): StateItem {
  return { resource: 'products', key, kind, hash: `h-${key}-${version}`, version, baseVersion };
}

async function imagesOf(runId: string): Promise<BeforeImage[]> {
  const out: BeforeImage[] = [];
  for await (const batch of history.beforeImages('p', runId)) out.push(...batch);
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

it('commits state and records the payloads, merging a patch with the payload kept', async () => {
  const first = await history.commit('p', 'run-1', [
    { item: item('a', 1, 'upsert'), json: '{"externalId":"a","name":"Ull","vendor":"Devold"}' },
    { item: item('b', 1, 'upsert'), json: '{"externalId":"b","name":"Lue"}' },
    { item: item('c', 1, 'patch'), json: '{"name":"Sko"}' },
  ]);
  expect(first.committed.map((i) => i.key)).toEqual(['a', 'b', 'c']);
  expect(first.stale).toEqual([]);
  expect(await createStateStore(redis, prefix).count('p', 'products')).toBe(3);

  const second = await history.commit('p', 'run-2', [
    { item: item('a', 2, 'patch', 1), json: '{"name":"Ullgenser"}' },
    { item: item('b', 2, 'delete', 1), json: undefined },
    // Older than what state holds: neither committed nor recorded.
    { item: item('c', 0, 'upsert'), json: '{"externalId":"c","name":"Gammel"}' },
  ]);
  expect(second.committed.map((i) => i.key)).toEqual(['a', 'b']);
  expect(second.stale.map((i) => i.key)).toEqual(['c']);

  const [a, b, c] = await history.lastDelivered('p', 'products', ['a', 'b', 'c']);
  expect(a).toEqual({
    version: 2,
    payload: { externalId: 'a', name: 'Ullgenser', vendor: 'Devold' },
  });
  expect(b).toEqual({ version: 2 });
  // A first patch has no whole payload to keep.
  expect(c).toBeUndefined();
  expect(await imagesOf('run-2')).toEqual([
    {
      resource: 'products',
      key: 'a',
      kind: 'patch',
      baseVersion: 1,
      before: { version: 1, payload: { externalId: 'a', name: 'Ull', vendor: 'Devold' } },
    },
    {
      resource: 'products',
      key: 'b',
      kind: 'delete',
      baseVersion: 1,
      before: { version: 1, payload: { externalId: 'b', name: 'Lue' } },
    },
  ]);

  // A retried job's commit changes nothing: its before-images keep what came before it.
  await history.commit('p', 'run-2', [
    { item: item('a', 2, 'patch', 1), json: '{"name":"Ullgenser"}' },
  ]);
  const [again] = await imagesOf('run-2');
  expect(again?.before?.payload).toEqual({ externalId: 'a', name: 'Ull', vendor: 'Devold' });
  expect(await history.ttl('p', 'run-2')).toBeGreaterThan(13 * 86_400);
});

it('commits and records keys holding the separators its arguments use', async () => {
  // Each item goes as its key, its head and state in one, its payload: a key with a bar or a line
  // break, and a version of a run's size, are kept whole.
  const version = 1_764_115_200_000;
  const keys = ['x|1|', 'y\nz', '|'];
  const result = await history.commit(
    'p',
    'run-sep',
    keys.map((key) => ({
      item: { ...item(key, version, 'upsert'), hash: 'h1', input: 'fp1' },
      json: `{"externalId":${JSON.stringify(key)}}`,
    })),
  );
  expect(result.committed.map((i) => i.key)).toEqual(keys);
  const kept = await history.lastDelivered('p', 'products', keys);
  expect(kept).toEqual(keys.map((key) => ({ version, payload: { externalId: key } })));
  const images = await imagesOf('run-sep');
  expect(images.map((i) => [i.key, i.kind, i.baseVersion, i.before])).toEqual(
    [...keys].sort((a, b) => a.localeCompare(b)).map((key) => [key, 'upsert', 0, undefined]),
  );
  const state = await createStateStore(redis, prefix).read('p', 'products', keys);
  expect(state.get('y\nz')).toEqual({ hash: 'h1', version, input: 'fp1' });

  // The same version again with another state is stale, and changes nothing kept.
  const again = await history.commit('p', 'run-sep2', [
    { item: { ...item('x|1|', version, 'upsert'), hash: 'other' }, json: '{"externalId":"new"}' },
  ]);
  expect(again.stale.map((i) => i.key)).toEqual(['x|1|']);
  const [x] = await history.lastDelivered('p', 'products', ['x|1|']);
  expect(x?.payload).toEqual({ externalId: 'x|1|' });
  expect(await imagesOf('run-sep2')).toEqual([]);
});
