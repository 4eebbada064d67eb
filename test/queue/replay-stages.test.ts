/**
 * A replay sends its dead letters in the stages of the pipeline's operations: a product the
 * platform refused goes before its price (refused too, as the platform had no such product), so
 * one replay delivers both once the cause is fixed. Sent together, the price could go first and be
 * refused again.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { replayDeadLetters } from '../../src/orchestrate/replay.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { quietLogger, runCatalog, testConfig, useDeliveryHarness } from './delivery-fixtures.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';

const h = useDeliveryHarness('replay-stages', { seed: 12 }, ({ dir }) =>
  generateItems(40, join(dir, 'items.csv'), 5),
);
/** Products of the generated file the platform refuses at first: each also fails its price. */
const REFUSED = ['100003', '100007', '100011', '100019'];

describe('a replay', () => {
  it('sends the products before their prices, so both are delivered at once', async () => {
    // One job at a time: the replay's order is the order its jobs are sent in.
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { concurrency: 1 });
    const keys = deliveryKeys(h.prefix);
    h.sim.setFaults({ rejectKeys: REFUSED });
    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    let runId: string;
    try {
      runId = (await runCatalog(h.redis, config, join(h.dir, 'items.csv'))).id;
    } finally {
      await worker.close();
    }
    const dlq = createDeadLetterStore(h.redis, keys);
    const letters = await dlq.list({ runId });
    // Each refused product, and its price (the platform has no such product).
    expect(letters).toHaveLength(REFUSED.length * 2);

    h.sim.setFaults({ rejectKeys: [] });
    // Selected prices first, as an operator may (`ferry dlq replay ID...`, the console's boxes).
    const prices = letters.filter((l) => l.operationId === 'products.prices.patch');
    const products = letters.filter((l) => l.operationId === 'products.put');
    const report = await replayDeadLetters({
      config,
      logger: quietLogger(),
      selection: { ids: [...prices, ...products].map((l) => l.id) },
      dryRun: false,
    });
    expect(report).toMatchObject({ delivered: letters.length, failed: 0, stale: 0 });
    // The replay's document names the run whose dead letters it sent, and no file it did not read.
    expect(report.runs).toHaveLength(1);
    expect(report.runs[0]).toMatchObject({ kind: 'replay', replayOf: [runId] });
    expect(report.runs[0]!.file).toBeUndefined();
    expect(await dlq.count()).toBe(0);
    const priced = (h.sim.state('prices') as { productId: string }[]).map((p) => p.productId);
    for (const key of REFUSED) expect(priced).toContain(key);
  });
});
