/**
 * A change the platform refused is planned again by the next run: its entity's version did not
 * move, so without more its request would carry the same idempotency key, and a platform that
 * keeps its answers per key (the simulator does) would replay the old refusal for good, even once
 * the cause is fixed. Refusal counts (state/refusals.ts) give it a new key each time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { quietLogger, runCatalog, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const h = useDeliveryHarness('refused-again', { seed: 11 }, ({ dir }) =>
  generateItems(10, join(dir, 'items.csv'), 3),
);

/** The SKU of the export's first row (`No.`, the first column). */
function firstSku(file: string): string {
  const row = readFileSync(file, 'latin1').split(/\r?\n/)[1] ?? '';
  return row.split(';')[0] ?? '';
}

describe('a refused change planned again', () => {
  it('is sent as a new request each run, and lands once the platform takes it', async () => {
    const file = join(h.dir, 'items.csv');
    const config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    const run = () => runCatalog(h.redis, config, file);
    const hasProduct = (sku: string) =>
      h.sim.state('products').some((p) => (p as { externalId?: string }).externalId === sku);
    try {
      const sku = firstSku(file);
      h.sim.setFaults({ rejectKeys: [sku] });
      const first = await run();
      expect(first.deadLetters).toBeGreaterThan(0);
      expect(hasProduct(sku)).toBe(false);

      // Still refused: the platform decided again (no answer replayed), the same dead letters.
      const second = await run();
      expect(h.sim.stats().replayed).toBe(0);
      expect(second.deadLetters).toBe(first.deadLetters);
      expect(hasProduct(sku)).toBe(false);

      // Fixed on the platform: the next run delivers it.
      h.sim.setFaults({ rejectKeys: [] });
      const third = await run();
      expect(h.sim.stats().replayed).toBe(0);
      expect(third.deadLetters).toBe(0);
      expect(third.status).toBe('succeeded');
      expect(hasProduct(sku)).toBe(true);

      // Delivered: nothing left to send.
      const fourth = await run();
      expect(fourth.stages.reduce((n, stage) => n + stage.requests, 0)).toBe(0);
    } finally {
      await worker.close();
    }
  });
});
