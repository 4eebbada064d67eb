import { describe, expect, it } from 'vitest';
import { resolveBindings } from '../../src/interface/bindings.js';
import type { DeliveryItem, DeliveryRequest } from '../../src/pipeline/types.js';
import { JobBundler } from '../../src/queue/bundle-jobs.js';
import type { JobPayload, StagedJob } from '../../src/runs/job-data.js';
import { decodeJobPayload, encodeJobPayload } from '../../src/runs/job-payload-codec.js';
import {
  itemsWithPayloads,
  jobRequestOf,
  narrowRequest,
  payloadsOf,
  subRequest,
} from '../../src/queue/request-body.js';

const bindings = resolveBindings({});

function item(key: string, payload: unknown): DeliveryItem {
  return {
    resource: 'products',
    key,
    kind: 'upsert',
    payload,
    hash: `h-${key}`,
    version: 3,
    baseVersion: 1,
    input: 'fingerprint16chr',
    source: { file: 'items.csv', line: 7 },
  };
}

// A description with a line break, quotes and a non-Latin character: JSON escapes the break, so a
// request's payloads stay on one line.
const products = [
  item('007', { externalId: '007', name: 'Ull "lue"\nmed dusk', vendor: 'Bergans' }),
  item('008', { externalId: '008', name: 'Genser ø' }),
];

describe('job payloads as stored', () => {
  it('keeps the entries committed along with an item (a price riding in its product)', () => {
    const riding = { ...item('009', undefined), resource: 'prices', fieldHashes: { prices: 'p' } };
    const carrier = { ...item('009', { externalId: '009', prices: [] }), also: [riding] };
    const request = jobRequestOf(
      bindings.get('products.put')!,
      { operationId: 'products.put', pathParams: {}, idempotencyKey: 'k3' },
      [carrier],
    );
    const back = decodeJobPayload(encodeJobPayload({ requests: [request] }));
    const [decoded] = back.requests[0]!.items;
    expect(decoded?.fieldHashes).toBeUndefined();
    expect(decoded?.also).toEqual([
      {
        resource: 'prices',
        key: '009',
        kind: 'upsert',
        hash: 'h-009',
        version: 3,
        baseVersion: 1,
        input: 'fingerprint16chr',
        source: { file: 'items.csv', line: 7 },
        fieldHashes: { prices: 'p' },
      },
    ]);
  });

  it('round-trip requests, items and payloads, one line of payloads per request', () => {
    const put = jobRequestOf(
      bindings.get('products.put')!,
      { operationId: 'products.put', pathParams: {}, idempotencyKey: 'k1' },
      products,
    );
    const price = jobRequestOf(
      bindings.get('products.prices.patch')!,
      {
        operationId: 'products.prices.patch',
        pathParams: { productId: '007' },
        idempotencyKey: 'k2',
      },
      [item('007', { prices: [{ amount: '12.50', currency: 'NOK' }] })],
    );
    const payload: JobPayload = { requests: [put, price], replayOf: ['dl-1'] };
    const text = encodeJobPayload(payload);
    expect(text.split('\n')).toHaveLength(3);
    const back = decodeJobPayload(text);
    expect(back).toEqual(payload);
    expect(itemsWithPayloads(back.requests[0]!)).toEqual(products);
    expect(payloadsOf(back.requests[1]!)).toEqual([
      { prices: [{ amount: '12.50', currency: 'NOK' }] },
    ]);
    // The items a job keeps carry no payload: it travels once, as JSON.
    expect(back.requests[0]!.items.every((i) => !('payload' in i))).toBe(true);
  });

  it('stores a planned request, put in its job as it is, with its payloads on their line only', () => {
    const payloads = products.map((p) => p.payload);
    const planned: DeliveryRequest = {
      operationId: 'products.put',
      pathParams: {},
      body: payloads,
      payloadsJson: JSON.stringify(payloads),
      items: products,
      idempotencyKey: 'k1',
    };
    const jobs: StagedJob[] = [];
    new JobBundler(100, (job) => jobs.push(job)).add(0, planned);
    const text = encodeJobPayload(jobs[0]!);
    const [head, line] = text.split('\n');
    expect(head).not.toContain('Bergans');
    expect(line).toBe(planned.payloadsJson);
    const [request] = decodeJobPayload(text).requests;
    expect(request!.items).toEqual(products.map(({ payload: _, ...kept }) => kept));
    expect(itemsWithPayloads(request!)).toEqual(products);
  });

  it('keeps what items lack, field hashes, and several resources and files apart', () => {
    const request = (operationId: string, items: JobPayload['requests'][0]['items']) => ({
      operationId,
      pathParams: {},
      idempotencyKey: `k-${operationId}`,
      items,
      payloadsJson: '[]',
    });
    const payload: JobPayload = {
      requests: [
        request('products.put', [
          {
            resource: 'products',
            key: '0042',
            kind: 'upsert',
            hash: 'h1',
            version: 2,
            baseVersion: 1,
          },
          {
            resource: 'prices',
            key: '0042',
            kind: 'patch',
            hash: 'h2',
            version: 2,
            baseVersion: 0,
            input: '',
            fieldHashes: { amount: 'a1', currency: 'c1' },
            source: { file: 'b.csv', line: 9 },
          },
        ]),
        request('products.delete', [
          {
            resource: 'products',
            key: '0043',
            kind: 'delete',
            hash: '',
            version: 5,
            baseVersion: 4,
            source: { file: 'a.csv', line: 1 },
          },
        ]),
      ],
    };
    const back = decodeJobPayload(encodeJobPayload(payload));
    expect(back).toEqual(payload);
    // Absent stays absent (an edited replay has no fingerprint), and '' stays ''.
    expect('input' in back.requests[0]!.items[0]!).toBe(false);
    expect(back.requests[0]!.items[1]!.input).toBe('');
    expect(decodeJobPayload(encodeJobPayload({ requests: [] }))).toEqual({ requests: [] });
  });

  it('reads a payload an earlier Ferry wrote (plain JSON, items with their payloads)', () => {
    const price = item('007', { prices: [{ amount: '12.50', currency: 'NOK' }] });
    const earlier = JSON.stringify({
      requests: [
        { operationId: 'products.put', pathParams: {}, idempotencyKey: 'k1', items: products },
        {
          operationId: 'products.prices.patch',
          pathParams: { productId: '007' },
          idempotencyKey: 'k2',
          items: [price],
        },
      ],
    });
    const [put, patch] = decodeJobPayload(earlier).requests;
    expect(itemsWithPayloads(put!)).toEqual(products);
    expect(put!.payloadsJson.startsWith('[')).toBe(true);
    expect(JSON.parse(patch!.payloadsJson)).toEqual(price.payload);
  });

  it('narrows and splits a request with the payloads of the items kept', () => {
    const put = jobRequestOf(
      bindings.get('products.put')!,
      { operationId: 'products.put', pathParams: {}, idempotencyKey: 'k1' },
      products,
    );
    const second = [put.items[1]!];
    const narrowed = narrowRequest(put, second);
    expect(narrowed.idempotencyKey).toBe('k1');
    expect(payloadsOf(narrowed)).toEqual([products[1]!.payload]);
    const part = subRequest(put, second);
    expect(part.idempotencyKey).not.toBe('k1');
    expect(itemsWithPayloads(part)).toEqual([products[1]]);
  });
});
