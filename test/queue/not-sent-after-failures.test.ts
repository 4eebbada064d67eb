/**
 * A bundle whose first requests fail transiently keeps the rest for the job's next attempt; on its
 * last attempt they are dead-lettered. Each dead letter tells its own request's story: the ones
 * sent carry their own answer, the ones kept back say they were not sent and why, never another
 * request's status and path as their own (real Redis, the simulator over TCP answering 5xx).
 */
import { describe, expect, it } from 'vitest';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import {
  startCatalog,
  followWithWorker,
  testConfig,
  useDeliveryHarness,
} from './delivery-fixtures.js';

const h = useDeliveryHarness('not-sent', { seed: 11, faults: { failRate: 1 } });
const file = `${PROJECT_ROOT}/examples/items.csv`;
const pricePath = (key: string) => `/external/api/products/${encodeURIComponent(key)}/prices`;

describe('requests a failing bundle did not send', () => {
  it('are dead-lettered on the last attempt as not sent, naming what kept them back, not as its own answer', async () => {
    const config = testConfig(h.prefix, h.sim.url, `${h.dir}/reports`, {
      attempts: 1,
      concurrency: 1,
    });
    const { runId } = await startCatalog(h.redis, config, file);
    const run = await followWithWorker(h.redis, config, runId);
    expect(run.status).toBe('partial');
    expect(run.operations['products.prices.patch']).toMatchObject({ delivered: 0, failed: 56 });

    const letters = (await createDeadLetterStore(h.redis, deliveryKeys(h.prefix)).list()).filter(
      (d) => d.operationId === 'products.prices.patch',
    );
    // examples/items.csv: 56 prices, one request each, all in one job (bundles of 100).
    expect(letters).toHaveLength(56);
    const sent = letters.filter((d) => d.status !== undefined);
    const kept = letters.filter((d) => d.status === undefined);
    // Three failed in a row, then the job sent no more.
    expect(sent).toHaveLength(3);
    for (const d of sent) {
      expect([500, 502, 503]).toContain(d.status);
      expect(d.message).toContain(pricePath(d.items[0]!.key));
    }
    expect(kept).toHaveLength(53);
    for (const d of kept) {
      expect(d.request.path).toBe(pricePath(d.items[0]!.key));
      expect(d.errorCode).toBe('FERRY_HTTP_TRANSIENT');
      expect(d.bodyExcerpt).toBeUndefined();
      expect(d.message).toMatch(
        /^not sent: 3 requests of its job failed in a row before it, the last with: products\.prices\.patch \(PATCH \/external\/api\/products\/[^/]+\/prices\)/,
      );
      expect(d.message).not.toContain(`(PATCH ${pricePath(d.items[0]!.key)})`);
    }
    // What kept them back is one of the three that were sent: the last of them, the same for all.
    const named = new Set(kept.map((d) => /products\/([^/]+)\/prices\)/.exec(d.message)?.[1]));
    expect(named.size).toBe(1);
    expect(sent.map((d) => d.items[0]!.key)).toContain([...named][0]);
  });
});
