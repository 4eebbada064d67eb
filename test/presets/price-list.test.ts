import { describe, expect, it } from 'vitest';
import { akeneoPrices } from '../../src/pipeline/presets/akeneo-prices.js';
import { lowestPerCurrency, parseAmount } from '../../src/pipeline/presets/price-list.js';

describe('lowestPerCurrency', () => {
  it('keeps the lowest amount of each currency, compared as decimals', () => {
    const merged = lowestPerCurrency(
      [
        { amount: '100.00', currency: 'USD' },
        { amount: '9.50', currency: 'EUR' },
      ],
      [
        { amount: '99.99', currency: 'USD' },
        { amount: '10.00', currency: 'EUR' },
      ],
    );
    expect(merged).toEqual([
      { amount: '99.99', currency: 'USD' },
      { amount: '9.50', currency: 'EUR' },
    ]);
  });

  it('takes a row without prices as nothing to merge', () => {
    expect(lowestPerCurrency([{ amount: '5.00', currency: 'USD' }], undefined)).toEqual([
      { amount: '5.00', currency: 'USD' },
    ]);
    expect(lowestPerCurrency(undefined, [])).toEqual([]);
  });
});

describe('parseAmount', () => {
  it.each([
    ['19.90', '19.90'],
    ['19,9', '19.90'],
    ['35', '35.00'],
    ['12.3400', '12.34'],
  ])('reads %s as %s', (text, value) => {
    expect(parseAmount(text)).toEqual({ value });
  });

  it.each(['twelve', '-5.00', '1,234.50', '$24.00', '12.345'])('refuses %s', (text) => {
    expect(parseAmount(text)).toHaveProperty('error');
  });
});

describe('akeneoPrices', () => {
  it('gives one price per price-<CUR> column with a value, in header order', () => {
    expect(
      akeneoPrices({ sku: '1', 'price-EUR': '19.90', 'price-GBP': '', 'price-USD': ' 21,5 ' }),
    ).toEqual({
      value: [
        { amount: '19.90', currency: 'EUR' },
        { amount: '21.50', currency: 'USD' },
      ],
    });
  });

  it('gives nothing when no price column has a value, and ignores other price-like columns', () => {
    expect(
      akeneoPrices({ 'price-EUR': '', 'price-ecommerce-EUR': '5', 'a_price-USD': '7' }),
    ).toBeUndefined();
  });

  it('names the column of an amount it cannot read', () => {
    expect(akeneoPrices({ 'price-EUR': 'twelve', 'price-USD': '14.00' })).toEqual({
      field: 'price-EUR',
      error: 'expected an amount such as 19.90 (or 19,90), not negative, got "twelve"',
    });
  });
});
