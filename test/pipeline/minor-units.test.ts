/**
 * Amounts in minor units (docs/PIPELINES.md, Minor units): the ISO 4217 exponents, the exact shift
 * (no float), the round modes, and the field spec's rules. End to end against the simulator:
 * test/queue/minor-units.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { minorUnitExponent } from '../../src/base/iso-4217.js';
import { toMinorUnits } from '../../src/pipeline/convert/minor-units.js';
import { definitionOf } from './helpers.js';
import { mapOne, payloadOf, productPipeline } from './mapping-helpers.js';

describe('ISO 4217 exponents', () => {
  it('2 unless the standard says otherwise; unknown codes and units without one are absent', () => {
    for (const code of ['NOK', 'EUR', 'USD', 'SEK', 'DKK', 'GBP', 'CHF']) {
      expect(minorUnitExponent(code), code).toBe(2);
    }
    for (const code of ['JPY', 'ISK', 'KRW', 'CLP', 'VND']) expect(minorUnitExponent(code)).toBe(0);
    for (const code of ['BHD', 'KWD', 'OMR', 'JOD', 'TND', 'IQD', 'LYD']) {
      expect(minorUnitExponent(code), code).toBe(3);
    }
    expect(minorUnitExponent('CLF')).toBe(4);
    for (const code of ['XYZ', 'XAU', 'XDR', 'XTS', 'nok', '']) {
      expect(minorUnitExponent(code), code).toBeUndefined();
    }
  });
});

describe('toMinorUnits', () => {
  it('shifts the digits by the exponent, exactly', () => {
    expect(toMinorUnits('1273.00', 'NOK', undefined)).toEqual({ value: 127_300 });
    expect(toMinorUnits('1273', 'NOK', undefined)).toEqual({ value: 127_300 });
    expect(toMinorUnits('1273.5', 'NOK', undefined)).toEqual({ value: 127_350 });
    expect(toMinorUnits('0.07', 'NOK', undefined)).toEqual({ value: 7 });
    expect(toMinorUnits('-12.30', 'EUR', undefined)).toEqual({ value: -1230 });
    expect(toMinorUnits('1273', 'JPY', undefined)).toEqual({ value: 1273 });
    expect(toMinorUnits('1273.000', 'JPY', undefined)).toEqual({ value: 1273 });
    expect(toMinorUnits('1.275', 'KWD', undefined)).toEqual({ value: 1275 });
    expect(toMinorUnits('12', 'KWD', undefined)).toEqual({ value: 12_000 });
    // 0.29 * 100 is 28.999999999999996 in doubles: the shift is on the digits.
    expect(toMinorUnits('0.29', 'NOK', undefined)).toEqual({ value: 29 });
    expect(toMinorUnits('90071992547409.91', 'NOK', undefined)).toEqual({
      value: Number.MAX_SAFE_INTEGER,
    });
  });

  it('refuses extra decimals unless told to round, half-up away from zero or half-even', () => {
    expect(toMinorUnits('12.345', 'NOK', undefined)).toEqual({
      error:
        '"12.345" has more decimals than NOK has (2); it is not rounded unless the field sets round',
    });
    expect(toMinorUnits('12.5', 'JPY', undefined)).toHaveProperty('error');
    expect(toMinorUnits('1.2755', 'KWD', undefined)).toHaveProperty('error');
    expect(toMinorUnits('12.345', 'NOK', 'half-up')).toEqual({ value: 1235 });
    expect(toMinorUnits('-12.345', 'NOK', 'half-up')).toEqual({ value: -1235 });
    expect(toMinorUnits('12.345', 'NOK', 'half-even')).toEqual({ value: 1234 });
    expect(toMinorUnits('12.355', 'NOK', 'half-even')).toEqual({ value: 1236 });
    expect(toMinorUnits('12.3451', 'NOK', 'half-even')).toEqual({ value: 1235 });
    expect(toMinorUnits('12.5', 'JPY', 'half-even')).toEqual({ value: 12 });
    expect(toMinorUnits('13.5', 'JPY', 'half-even')).toEqual({ value: 14 });
    expect(toMinorUnits('1.2755', 'KWD', 'half-up')).toEqual({ value: 1276 });
  });

  it('refuses an unknown code and a count past 2^53 - 1', () => {
    expect(toMinorUnits('10', 'XYZ', undefined)).toEqual({
      error: '"XYZ" is not an ISO 4217 currency code',
    });
    expect(toMinorUnits('90071992547409.92', 'NOK', undefined)).toEqual({
      error:
        '"90071992547409.92" NOK is 9007199254740992 minor units, more than 2^53 - 1: too large to be sent exactly',
    });
  });
});

describe('a field with minorUnits', () => {
  const fields = (amount: Record<string, unknown>) => ({
    name: 'Name',
    vendor: { value: 'ACME' },
    handle: { value: 'h' },
    active: { value: true },
    categoryExternalIds: { value: [] },
    // A field of the products schema that is free to hold a number here (schema: none).
    description: { column: 'Price', type: 'decimal', decimalSeparator: ',', ...amount },
  });
  const pipeline = (amount: Record<string, unknown>) =>
    productPipeline(fields(amount), { schema: 'none' });

  it('takes the currency from its column (any case) or its fixed code', () => {
    const byColumn = pipeline({ minorUnits: { column: 'Currency' } });
    const row = (price: string, currency: string) =>
      mapOne(byColumn, { 'No.': '1', Name: 'X', Price: price, Currency: currency });
    expect(payloadOf(row('1 273,00', 'nok')).description).toBe(127_300);
    expect(payloadOf(row('1 273', 'JPY')).description).toBe(1273);
    expect(row('10,00', 'XYZ')).toMatchObject({
      field: 'Currency',
      message: 'Currency: "XYZ" is not an ISO 4217 currency code',
    });
    expect(row('10,00', '')).toMatchObject({
      field: 'Currency',
      message:
        'Currency: no currency code for the amount of Price (minorUnits: {column: Currency})',
    });
    expect(row('10,001', 'NOK')).toMatchObject({ field: 'Price', line: 2 });
    const fixed = pipeline({ minorUnits: { code: 'KWD' }, round: 'half-up' });
    expect(payloadOf(mapOne(fixed, { 'No.': '1', Name: 'X', Price: '1,2755' })).description).toBe(
      1276,
    );
  });

  it('is refused when the pipeline loads: a code not in ISO 4217, a non-decimal, a scale', () => {
    const load = (amount: Record<string, unknown>) => () =>
      definitionOf('t', {
        source: {},
        mode: 'snapshot',
        entities: [
          {
            operations: { upsert: 'products.put' },
            key: 'No.',
            schema: 'none',
            fields: { description: { column: 'Price', ...amount } },
          },
        ],
      });
    expect(load({ type: 'decimal', minorUnits: { code: 'XYZ' } })).toThrow(
      /expected an ISO 4217 currency code, e.g. NOK/,
    );
    expect(load({ minorUnits: { code: 'NOK' } })).toThrow(/minorUnits goes with type: decimal/);
    expect(load({ type: 'decimal', scale: 2, minorUnits: { code: 'NOK' } })).toThrow(
      /leave scale out/,
    );
    // round alone rounds nothing: said, not ignored.
    expect(load({ type: 'decimal', round: 'half-up' })).toThrow(/round rounds to scale/);
    expect(load({ type: 'decimal', scale: 2, round: 'half-up' })).not.toThrow();
  });
});
