import { describe, expect, it } from 'vitest';
import { isFerryError } from '../../src/errors/index.js';
import { parseEditedPayloads } from '../../src/queue/dlq/edited-payloads.js';

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
