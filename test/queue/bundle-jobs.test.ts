import { describe, expect, it } from 'vitest';
import type { DeliveryRequest } from '../../src/pipeline/types.js';
import { JobBundler } from '../../src/queue/bundle-jobs.js';
import type { StagedJob } from '../../src/runs/job-data.js';

function req(key: string, items = 1): DeliveryRequest {
  return {
    operationId: items > 1 ? 'products.put' : 'products.prices.patch',
    pathParams: items > 1 ? {} : { productId: key },
    body: {},
    payloadsJson: items > 1 ? `[${Array(items).fill('{}').join(',')}]` : '{}',
    idempotencyKey: `key-${key}`,
    items: Array.from({ length: items }, (_, i) => ({
      resource: 'prices',
      key: `${key}${i}`,
      kind: 'upsert' as const,
      payload: {},
      hash: 'h',
      version: 1,
      baseVersion: 0,
    })),
  };
}

describe('jobs from planned requests', () => {
  it('bundles one-entity requests per stage and gives batches a job each', () => {
    const jobs: StagedJob[] = [];
    const bundler = new JobBundler(3, (job) => jobs.push(job));
    bundler.add(0, req('batch', 100));
    for (const k of ['a', 'b', 'c', 'd']) bundler.add(1, req(k));
    bundler.add(2, req('e'));
    bundler.finish();
    expect(jobs.map((j) => [j.stage, j.requests.length])).toEqual([
      [0, 1],
      [1, 3],
      [1, 1],
      [2, 1],
    ]);
    // A job of one request has that request's idempotency key as its id; a bundle a hash of them.
    expect(jobs[0]?.id).toBe('key-batch');
    expect(jobs[1]?.id).toMatch(/^b[0-9a-f]{64}$/);
    expect(jobs[1]?.requests.map((r) => r.idempotencyKey)).toEqual(['key-a', 'key-b', 'key-c']);
  });

  it('gives the same bundle the same id (a repeated enqueue is a no-op)', () => {
    const ids = [0, 1].map(() => {
      const out: StagedJob[] = [];
      const bundler = new JobBundler(2, (job) => out.push(job));
      bundler.add(0, req('a'));
      bundler.add(0, req('b'));
      return out[0]?.id;
    });
    expect(ids[0]).toBe(ids[1]);
  });
});
