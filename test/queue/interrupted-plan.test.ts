/**
 * A run stopped (Ctrl-C, SIGTERM) while it is planned records nothing and sends nothing, also
 * when the stop comes after its last record was read (grouping, deletes and writing its jobs take
 * seconds for a million rows); its pipeline's lock is released.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { recentRuns } from '../../src/runs/run-index.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const h = useDeliveryHarness('interrupted-plan', { seed: 8 });
const ITEMS = resolve(PROJECT_ROOT, 'examples/items.csv');

describe('a run stopped while it is planned', () => {
  it('after its last record was read: nothing recorded, its lock released', async () => {
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
    const keys = deliveryKeys(h.prefix);
    const stop = new AbortController();
    const started = startRun({
      config,
      redis: h.redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: ITEMS },
      signal: stop.signal,
      // Every record is read by the time the deletes are looked for.
      onProgress: ({ phase }) => {
        if (phase === 'deletes') stop.abort(new Error('stopped by the operator'));
      },
    });
    await expect(started).rejects.toThrow('stopped by the operator');
    expect(await recentRuns(h.redis, keys, { pipeline: 'catalog', limit: 5 })).toEqual([]);
    expect(await h.redis.exists(keys.activeRun('catalog'))).toBe(0);
    expect(h.sim.stats().requests).toBe(0);

    // The pipeline is free: the next run goes.
    const next = await startRun({
      config,
      redis: h.redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: ITEMS },
    });
    expect(next.enqueued).toBe(true);
  });
});
