/**
 * base/json-chunks: a JSON document in pieces (what `--json` writes, so that a plan of a million
 * items is never one string) joins to exactly what stringifyExact writes.
 */
import { describe, expect, it } from 'vitest';
import { ExactNumber, stringifyExact } from '../../src/base/exact-json.js';
import { jsonChunks } from '../../src/base/json-chunks.js';

const DOCUMENT = {
  pipeline: 'catalog',
  rows: 3,
  empty: { a: [], o: {} },
  skipped: undefined,
  fn: () => 1,
  at: new Date(Date.UTC(2026, 10, 28, 2, 15)),
  items: [
    { operationId: 'products.upsert', payload: { price: new ExactNumber('12345678901234567.89') } },
    undefined,
    [1, 'two', null, true, Number.NaN],
    { 'key "quoted"\n': 'line\nbreak', 'ø-ü': ['ä', { deep: [[[]], {}] }] },
  ],
  errors: [{ file: 'items.csv', line: 2, message: 'Unit Price: expected a decimal' }],
};

describe('JSON in pieces', () => {
  it('joins to stringifyExact, indented or not, whatever size of piece', () => {
    for (const indent of [0, 2]) {
      for (const small of [0, 1, 3, 2_000]) {
        const pieces = [...jsonChunks(DOCUMENT, indent, small)];
        expect(pieces.join(''), `indent ${indent}, small ${small}`).toBe(
          stringifyExact(DOCUMENT, indent),
        );
      }
    }
  });

  it('writes scalars and empty containers as JSON.stringify does', () => {
    for (const value of [null, 0, -1.5, 'text', true, [], {}, new ExactNumber('1e400')]) {
      expect([...jsonChunks(value, 2, 0)].join('')).toBe(stringifyExact(value, 2));
    }
  });

  it('opens a large array: no piece holds more than one of its items', () => {
    const items = Array.from({ length: 10_000 }, (_, i) => ({ key: `k${i}`, payload: { n: i } }));
    const pieces = [...jsonChunks({ items }, 2)];
    expect(pieces.length).toBeGreaterThan(10_000);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(100);
    expect(JSON.parse(pieces.join(''))).toEqual({ items });
  });
});
