/**
 * Against a faulty platform (20% 5xx, 5% reset connections, 5% applied-then-reset, 429s)
 * every valid item is delivered, none twice, and nothing is dead-lettered.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { executeRun } from '../../src/orchestrate/execute-run.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const h = useDeliveryHarness(
  'faults',
  {
    seed: 42,
    // A limit of 5 requests a second is met at once, however slow the machine; once it has
    // answered 429s it is lifted, so the rest of the run goes at the machine's pace.
    faults: { failRate: 0.2, resetRate: 0.05, applyThenFailRate: 0.05, rateLimit: 5 },
  },
  ({ dir }) => generateItems(300, join(dir, 'items.csv'), 11),
);

describe('delivery against a faulty platform', () => {
  it('delivers every valid item exactly once', async () => {
    // Unlimited on Ferry's side, as fast as the platform lets it: the 429s are the point here.
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), {
      concurrency: 4,
      ratePerSecond: 0,
    });
    let running = true;
    const lift = (async () => {
      while (running && h.sim.stats().rateLimited === 0) await sleep(20);
      h.sim.setFaults({ rateLimit: 0 });
    })();
    const report = await executeRun({
      config,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(h.dir, 'items.csv') },
      wait: true,
    });
    running = false;
    await lift;
    const stats = h.sim.stats();
    // The faults did happen...
    expect(stats.faults.failed).toBeGreaterThan(0);
    expect(stats.faults.reset).toBeGreaterThan(0);
    expect(stats.faults.appliedThenFailed).toBeGreaterThan(0);
    expect(stats.rateLimited).toBeGreaterThan(0);
    // ...and yet every planned item arrived, once.
    expect(report.deadLettered).toBe(0);
    for (const [id, counts] of Object.entries(report.operations)) {
      expect(counts.planned, id).toBeGreaterThan(0);
      expect(counts.delivered, id).toBe(counts.planned);
    }
    expect(stats.duplicates).toBe(0);
    expect(h.sim.state('products')).toHaveLength(report.operations['products.put']?.planned ?? -1);
    expect(h.sim.state('prices')).toHaveLength(
      report.operations['products.prices.patch']?.planned ?? -1,
    );
    expect(await createDeadLetterStore(h.redis, deliveryKeys(h.prefix)).count()).toBe(0);

    // The forecast's requests left count each request once, when it is done with: the failures
    // sent again did not take more off (the rate counts every answer).
    const run = await h.redis.hgetall(deliveryKeys(h.prefix).run(report.runId));
    const planned = report.stages.reduce((n, st) => n + st.requests, 0);
    expect(Number(run.sent)).toBe(planned);
    const answered = Object.entries(run)
      .filter(([field]) => field.startsWith('rq:'))
      .reduce((n, [, v]) => n + Number(v), 0);
    expect(answered).toBeGreaterThan(planned);
  });
});
