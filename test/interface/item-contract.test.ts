/**
 * An item schema compiled for plan-time checks: 3.0's nullable and boolean bounds read as 3.0 means
 * them, number rules checked on the digits, and the JSON written with numbers from them.
 */
import { describe, expect, it } from 'vitest';
import { createSchemaCompiler } from '../../src/interface/openapi/item-contract.js';

const schema = {
  type: 'object',
  properties: {
    nullable: { type: 'string' }, // a property named so, not the keyword
    endsAt: { type: 'string', format: 'date', nullable: true },
    discount: { type: 'number', minimum: 0, exclusiveMinimum: true, multipleOf: 0.05 },
    quantity: { type: 'integer', maximum: 1000 },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { total: { type: 'number', multipleOf: 0.01 } } },
    },
  },
};

describe('item contracts', () => {
  const item = createSchemaCompiler('test.yaml', '3.0')(schema, '/x');

  it('reads 3.0: nullable admits null, exclusiveMinimum true makes minimum exclusive', () => {
    expect(item.check({ endsAt: null, nullable: 'kept' })).toBeUndefined();
    expect(item.check({ nullable: 3 })).toEqual([
      { pointer: '/nullable', message: 'must be string, got 3' },
    ]);
    expect(item.check({ discount: '0' })).toEqual([
      { pointer: '/discount', message: 'must be > 0, got 0' },
    ]);
  });

  it('checks number rules on the digits, wherever the numbers stand', () => {
    expect(
      item.check({ discount: '0.15', quantity: 12, lines: [{ total: '0.07' }] }),
    ).toBeUndefined();
    expect(item.check({ discount: '0.12' })?.[0]?.message).toBe(
      'must be a multiple of 0.05, got 0.12; it is not rounded',
    );
    expect(item.check({ quantity: '12.50' })?.[0]?.message).toMatch(
      /^must be an integer, got 12\.50: a decimal is never written into an integer property/,
    );
    // Zeros after the point too: 1273.00 kroner is not 1273 øre.
    expect(item.check({ quantity: '12.00' })?.[0]).toMatchObject({
      pointer: '/quantity',
      message: expect.stringContaining('set minorUnits on the field') as string,
    });
    expect(item.check({ quantity: '12' })).toBeUndefined();
    expect(item.check({ quantity: 1001 })?.[0]?.message).toBe('must be <= 1000, got 1001');
    expect(item.check({ lines: [{ total: '1.00' }, { total: '2.001' }] })).toEqual([
      {
        pointer: '/lines/1/total',
        message: 'must be a multiple of 0.01 (at most 2 decimals), got 2.001; it is not rounded',
      },
    ]);
    expect(item.check({ discount: 'cheap' })?.[0]).toEqual({
      pointer: '/discount',
      message: 'must be number, got "cheap"',
    });
  });

  it('writes decimal strings of number properties as JSON numbers, the rest as JSON.stringify does', () => {
    const payload = { discount: '0.10', endsAt: null, lines: [{ total: '98765432109876543.21' }] };
    expect(item.write?.(payload)).toBe(
      '{"discount":0.10,"endsAt":null,"lines":[{"total":98765432109876543.21}]}',
    );
    expect(item.write?.({ nullable: '0.10', quantity: 3 })).toBe(
      '{"nullable":"0.10","quantity":3}',
    );
  });
});
