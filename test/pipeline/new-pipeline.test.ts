/** `ferry pipeline new`'s matching of schema properties to sample columns, and the file it writes. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolveBindings } from '../../src/interface/bindings.js';
import { findOperation } from '../../src/interface/catalog.js';
import { columnFor, newPipeline } from '../../src/pipeline/contract/new-pipeline.js';

describe('columnFor', () => {
  it('exact, then case and punctuation folded, then synonyms', () => {
    expect(columnFor('gtin', ['GTIN', 'gtin'])).toBe('gtin');
    expect(columnFor('externalId', ['External-ID', 'No.'])).toBe('External-ID');
    expect(columnFor('externalId', ['Name', 'No.'])).toBe('No.');
    expect(columnFor('externalId', ['Item number'])).toBe('Item number');
    expect(columnFor('amount', ['Unit Price'])).toBe('Unit Price');
    expect(columnFor('vendor', ['Colour'])).toBeUndefined();
  });
});

describe('newPipeline', () => {
  it('writes a loadable pipeline: typed fields, the key, a TODO for each required gap', () => {
    const operation = findOperation('products.prices.patch')!;
    const made = newPipeline({
      operation,
      binding: resolveBindings().get(operation.id)!,
      item: {
        type: 'object',
        required: ['prices', 'currency'],
        properties: {
          prices: { type: 'array', items: { type: 'object' } },
          currency: { type: 'string' },
          sortIndex: { type: 'integer' },
        },
      },
      columns: ['No.', 'Sort'],
      sample: 'prices.csv',
      connector: 'csv',
      sourceOptions: {},
    });
    expect(made.matched).toEqual([
      { property: 'productId', column: 'No.' },
      { property: 'sortIndex', column: 'Sort' },
    ]);
    expect(made.todo).toEqual(['prices', 'currency']);
    const doc = parse(made.text) as { entities: Record<string, unknown>[] };
    expect(doc.entities[0]).toEqual({
      name: 'prices',
      operations: { upsert: 'products.prices.patch' },
      key: 'No.',
      fields: { sortIndex: { column: 'Sort', type: 'integer' } },
    });
  });
});
