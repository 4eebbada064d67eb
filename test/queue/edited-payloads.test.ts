import { describe, expect, it } from 'vitest';
import { isFerryError } from '../../src/errors/index.js';
import { resolveBindings } from '../../src/interface/bindings.js';
import type { DeliveryItem } from '../../src/pipeline/types.js';
import type { DeadLetter } from '../../src/runs/dead-letters/dead-letter.js';
import { parseEditedPayloads } from '../../src/queue/dlq/edited-payloads.js';
import { replayRequest } from '../../src/queue/dlq/replay-request.js';
import { payloadsOf } from '../../src/queue/request-body.js';

const price = (amount: string) => ({ prices: [{ amount, currency: 'NOK' }] });

describe('edited payloads for a replay', () => {
  it('reads a JSON object of payloads by key', () => {
    const edits = parseEditedPayloads(
      JSON.stringify({ A1: price('1.00'), A2: price('2.00') }),
      'e.json',
    );
    expect(edits.size).toBe(2);
    expect(edits.find('products.prices.patch', 'A2')?.payload).toEqual(price('2.00'));
    expect(edits.find('products.prices.patch', 'A3')).toBeUndefined();
  });

  it('reads NDJSON and an array, with operationId narrowing an edit', () => {
    const ndjson = [
      JSON.stringify({
        key: 'A1',
        payload: { externalId: 'A1', name: 'P' },
        operationId: 'products.put',
      }),
      '',
      JSON.stringify({ key: 'A1', payload: price('1.00') }),
    ].join('\n');
    const edits = parseEditedPayloads(ndjson, 'e.ndjson');
    expect(edits.find('products.put', 'A1')?.payload).toEqual({ externalId: 'A1', name: 'P' });
    expect(edits.find('products.prices.patch', 'A1')?.payload).toEqual(price('1.00'));
    const array = parseEditedPayloads(
      JSON.stringify([{ key: 'B', payload: price('3.00') }]),
      'e.json',
    );
    expect(array.find('x', 'B')?.payload).toEqual(price('3.00'));
  });

  it('names the file and line of a bad entry', () => {
    const bad = `${JSON.stringify({ key: 'A1', payload: {} })}\n{"payload": {}}\n`;
    let error: unknown;
    try {
      parseEditedPayloads(bad, 'e.ndjson');
    } catch (e) {
      error = e;
    }
    expect(isFerryError(error) && error.code).toBe('FERRY_USAGE');
    expect((error as Error).message).toContain('e.ndjson:2');
    expect(() => parseEditedPayloads('{"key":"A"}\nnot json', 'x.ndjson')).toThrow(/x\.ndjson:1/);
  });
});

describe('a replay with edited payloads', () => {
  const bindings = resolveBindings();
  const entry = (
    operationId: string,
    kind: DeliveryItem['kind'],
    payload: unknown,
  ): DeadLetter => ({
    id: 'dl-1',
    runId: 'r1',
    pipeline: 'catalog',
    operationId,
    pathParams: operationId === 'products.prices.patch' ? { productId: 'A1' } : {},
    idempotencyKey: 'k1',
    items: [
      {
        resource: operationId === 'products.prices.patch' ? 'prices' : 'products',
        key: 'A1',
        kind,
        payload,
        hash: 'h',
        version: 2,
        baseVersion: 1,
        source: { file: 'items.csv', line: 7 },
      },
    ],
    request: { method: 'PATCH', path: '/x', headers: {} },
    status: 422,
    errorCode: 'FERRY_HTTP_PERMANENT',
    message: 'refused',
    attempts: 1,
    at: 0,
    jobId: 'j1',
  });

  it('sends a valid edit with a new idempotency key', () => {
    const dead = entry('products.prices.patch', 'upsert', price('-12.00'));
    const edits = parseEditedPayloads(JSON.stringify({ A1: price('12.00') }), 'e.json');
    const replay = replayRequest(dead, bindings.get('products.prices.patch')!, edits);
    expect(replay.edited).toBe(true);
    expect(payloadsOf(replay.request)).toEqual([price('12.00')]);
    expect(replay.request.idempotencyKey).not.toBe('k1');
  });

  it('refuses an edit that breaks the resource schema (a price typed as a number), naming the field', () => {
    const dead = entry('products.prices.patch', 'upsert', price('-12.00'));
    const edits = parseEditedPayloads(
      '{"A1": {"prices": [{"amount": 12.5, "currency": "NOK"}]}}',
      'e.json',
    );
    expect(() => replayRequest(dead, bindings.get('products.prices.patch')!, edits)).toThrow(
      /products\.prices\.patch item "A1".*prices\.0\.amount/,
    );
  });

  it('checks a PATCH edit as a partial item', () => {
    const dead = entry('products.patch', 'patch', { externalId: 'A1', name: '' });
    const ok = parseEditedPayloads(
      JSON.stringify({ A1: { externalId: 'A1', name: 'Fixed' } }),
      'e.json',
    );
    expect(replayRequest(dead, bindings.get('products.patch')!, ok).edited).toBe(true);
    const bad = parseEditedPayloads(
      JSON.stringify({ A1: { externalId: 'A1', active: 'yes' } }),
      'e.json',
    );
    expect(() => replayRequest(dead, bindings.get('products.patch')!, bad)).toThrow(/active/);
  });
});
