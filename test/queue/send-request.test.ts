/**
 * Isolating what the platform refuses, against a real HTTP server of the test's own that plays a
 * platform without per-item results: a batch with a bad item is split until the bad item stands
 * alone; 413 splits too; per-item results in a 4xx name the bad items; a 403 is not split; the
 * retry budget bounds the calls; transient failures are handed back for the next attempt.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveBindings } from '../../src/interface/bindings.js';
import { createInterfaceClient } from '../../src/interface/client.js';
import type { InterfaceClient } from '../../src/interface/client-types.js';
import type { DeliveryItem, StateItem } from '../../src/pipeline/types.js';
import type { JobRequest } from '../../src/runs/job-data.js';
import { jobRequestOf } from '../../src/queue/request-body.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { createRateGate, type RateGate } from '../../src/queue/worker/rate-gate.js';
import { sendRequest, type SendContext } from '../../src/queue/worker/send-request.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { testConfig, expectNothingOpen } from './delivery-fixtures.js';

type Mode = 'split' | 'too-large' | 'named' | 'forbidden' | 'unavailable' | 'partial';

const prefix = uniquePrefix('send');
const BAD = new Set(['k3', 'k11']);
let mode: Mode = 'split';
let calls: string[][] = [];
let server: Server;
let client: InterfaceClient;
let redis: Redis;
let gate: RateGate;
const bindings = resolveBindings({});

function answer(keys: string[]): { status: number; body: unknown } {
  const bad = keys.filter((k) => BAD.has(k));
  switch (mode) {
    case 'split':
      return bad.length > 0
        ? { status: 422, body: { error: { code: 'VALIDATION_FAILED' } } }
        : { status: 200, body: {} };
    case 'too-large':
      return keys.length > 4
        ? { status: 413, body: { error: { code: 'TOO_LARGE' } } }
        : { status: 200, body: {} };
    case 'named':
      return bad.length > 0
        ? {
            status: 422,
            body: {
              results: bad.map((k) => ({
                externalId: k,
                status: 422,
                error: { code: 'VALIDATION_FAILED', message: 'bad' },
              })),
            },
          }
        : { status: 200, body: {} };
    case 'forbidden':
      return { status: 403, body: { error: { code: 'FORBIDDEN' } } };
    case 'unavailable':
      return { status: 503, body: { error: { code: 'INTERNAL' } } };
    case 'partial':
      return {
        status: 207,
        body: { results: keys.map((k) => ({ externalId: k, status: BAD.has(k) ? 422 : 200 })) },
      };
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const keys = (JSON.parse(body) as { externalId: string }[]).map((i) => i.externalId);
      calls.push(keys);
      const { status, body: out } = answer(keys);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = createInterfaceClient(testConfig(prefix, url, '.').interface);
  redis = new Redis(TEST_REDIS_URL);
  gate = createRateGate(redis, deliveryKeys(prefix), { ratePerSecond: 0, bulkShare: 0.8 });
});

afterAll(async () => {
  gate.close();
  await client.close();
  await new Promise((r) => server.close(r));
  redis.disconnect();
  await deleteKeys(prefix);
  await expectNothingOpen();
});

beforeEach(() => {
  calls = [];
});

function request(n: number): JobRequest {
  const items: DeliveryItem[] = Array.from({ length: n }, (_, i) => ({
    resource: 'products',
    key: `k${i + 1}`,
    kind: 'upsert',
    payload: { externalId: `k${i + 1}`, name: `Item ${i + 1}` },
    hash: `h${i + 1}`,
    version: 2,
    baseVersion: 0,
    source: { file: 'items.csv', line: i + 2 },
  }));
  return jobRequestOf(
    bindings.get('products.put')!,
    { operationId: 'products.put', pathParams: {}, idempotencyKey: 'key-1' },
    items,
  );
}

function ctx(budget = 64): SendContext {
  return { client, gate, lane: 'bulk', budget, binding: (id) => bindings.get(id)! };
}

const keys = (items: StateItem[]) => items.map((i) => i.key).sort();

describe('sendRequest', () => {
  it('splits a refused batch until the bad items stand alone', async () => {
    mode = 'split';
    const result = await sendRequest(request(16), ctx());
    expect(keys(result.refused.flatMap((r) => r.items))).toEqual(['k11', 'k3']);
    expect(result.refused.every((r) => r.items.length === 1 && r.status === 422)).toBe(true);
    expect(result.confirmed).toHaveLength(14);
    expect(result.deferred).toEqual([]);
    // Every part went with its own idempotency key: no two calls carried the same items.
    expect(new Set(calls.map((c) => c.join())).size).toBe(calls.length);
    expect(calls[0]).toHaveLength(16);
    expect(calls.length).toBeLessThan(16);
  });

  it('splits on 413 until the parts are small enough', async () => {
    mode = 'too-large';
    const result = await sendRequest(request(16), ctx());
    expect(result.confirmed).toHaveLength(16);
    expect(calls.filter((c) => c.length <= 4)).toHaveLength(4);
  });

  it('refuses the items a 4xx names and sends the rest again at once', async () => {
    mode = 'named';
    const result = await sendRequest(request(16), ctx());
    expect(keys(result.refused.flatMap((r) => r.items))).toEqual(['k11', 'k3']);
    expect(result.confirmed).toHaveLength(14);
    expect(calls).toHaveLength(2);
    expect(calls[1]).toHaveLength(14);
  });

  it('neither splits nor refuses a refusal of the caller (403): it is held for the breaker', async () => {
    mode = 'forbidden';
    const result = await sendRequest(request(16), ctx());
    expect(calls).toHaveLength(1);
    expect(result.refused).toEqual([]);
    expect(result.held).toHaveLength(1);
    expect(result.held[0]).toMatchObject({
      status: 403,
      errorCode: 'FERRY_HTTP_PERMANENT',
      reason: 'forbidden',
    });
    expect(result.held[0]?.request.items).toHaveLength(16);
  });

  it('stops at the retry budget and dead-letters the rest with its code', async () => {
    mode = 'split';
    const result = await sendRequest(request(16), ctx(3));
    expect(calls).toHaveLength(3);
    const exhausted = result.refused.filter((r) => r.errorCode === 'FERRY_RETRY_BUDGET_EXHAUSTED');
    expect(exhausted.length).toBeGreaterThan(0);
    const all = [...result.confirmed, ...result.refused.flatMap((r) => r.items)];
    expect(keys(all)).toEqual(keys(request(16).items));
  });

  it('hands a transient failure back for the next attempt', async () => {
    mode = 'unavailable';
    const result = await sendRequest(request(4), ctx());
    expect(calls).toHaveLength(1);
    expect(result.deferred).toHaveLength(1);
    expect(result.deferred[0]).toMatchObject({ status: 503, errorCode: 'FERRY_HTTP_TRANSIENT' });
    expect(result.refused).toEqual([]);
  });

  it('a 207 confirms the items that applied and refuses the others one by one', async () => {
    mode = 'partial';
    const result = await sendRequest(request(16), ctx());
    expect(calls).toHaveLength(1);
    expect(result.confirmed).toHaveLength(14);
    expect(result.refused.map((r) => r.items.map((i) => i.key))).toEqual([['k3'], ['k11']]);
    expect(result.refused[0]?.bodyExcerpt).toContain('"k3"');
  });
});
