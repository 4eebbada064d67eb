/**
 * The value guards on a first night, on a real Redis: with no payload kept for a resource, its
 * planned items are not looked up key by key (one EXISTS for the resource) and nothing is counted;
 * once a payload of it is kept, every planned item is looked up again and a price moved tenfold
 * trips `valueChange`.
 */
import { afterAll, expect, it } from 'vitest';
import type { DeliveryItem } from '../../src/pipeline/types.js';
import { GuardWatcher } from '../../src/pipeline/guards/value-guards.js';
import { createRedis } from '../../src/redis/connection.js';
import {
  createPayloadHistory,
  type PayloadHistory,
} from '../../src/state/before-images/payload-history.js';
import { createStateStore } from '../../src/state/state-store.js';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from '../helpers/redis.js';

const prefix = uniquePrefix('guards-first-night');
const redis = createRedis(TEST_REDIS_URL);
const history = createPayloadHistory(redis, prefix, 1);
const store = createStateStore(redis, prefix);

afterAll(async () => {
  await deleteKeys(prefix);
  redis.disconnect();
});

/** The history, counting the keys looked up one by one. */
function counted(): { history: PayloadHistory; looked: () => number } {
  let looked = 0;
  return {
    history: {
      ...history,
      lastDelivered: (pipeline, resource, keys) => {
        looked += keys.length;
        return history.lastDelivered(pipeline, resource, keys);
      },
    },
    looked: () => looked,
  };
}

const price = (key: string, amount: string, version: number): DeliveryItem => ({
  resource: 'prices',
  key,
  kind: 'upsert',
  hash: `h-${amount}`,
  version,
  baseVersion: version - 1,
  payload: { amount },
});

/** Plans 2,500 prices (three batches of the watcher) through the guards; their report. */
async function night(h: PayloadHistory, amount: (i: number) => string, version: number) {
  const watcher = new GuardWatcher(
    { valueChange: { field: 'amount', maxFactor: 5 } },
    'p',
    h,
    store,
    [{ resource: 'prices', fields: ['amount'] }],
  );
  for (let i = 0; i < 2_500; i++) watcher.observe(price(`K${i}`, amount(i), version));
  return watcher.finish(2_500, undefined);
}

it('looks up no key while nothing is kept, and every key once something is', async () => {
  const first = counted();
  const report = await night(first.history, () => '10.00', 1);
  expect(first.looked()).toBe(0);
  expect(report.results[0]).toMatchObject({ guard: 'valueChange', count: 0, tripped: false });

  const delivered = price('K7', '10.00', 1);
  const { committed } = await history.commit('p', 'run-1', [
    { item: delivered, json: JSON.stringify(delivered.payload) },
  ]);
  expect(committed).toHaveLength(1);

  const second = counted();
  const moved = await night(second.history, (i) => (i === 7 ? '100.00' : '10.00'), 2);
  expect(second.looked()).toBe(2_500);
  expect(moved.results[0]).toMatchObject({ guard: 'valueChange', count: 1, tripped: true });
});
