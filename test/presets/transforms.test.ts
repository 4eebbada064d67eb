import { describe, expect, it } from 'vitest';
import { findTransform, TransformRejection } from '../../src/pipeline/transforms/index.js';

const context = { fields: {} };

describe('currencyWithAmount', () => {
  const transform = findTransform('currencyWithAmount')?.apply;

  it('gives the code when an amount follows it, no value when none does', () => {
    expect(transform?.('USD 12.00', context)).toBe('USD');
    expect(transform?.('EUR 19,90', context)).toBe('EUR');
    expect(transform?.('USD', context)).toBeUndefined();
  });

  it('refuses what is not a currency code', () => {
    expect(() => transform?.('usd 12.00', context)).toThrow(TransformRejection);
    expect(() => transform?.('$ 12.00', context)).toThrow(
      'expected an ISO 4217 currency code such as EUR before the amount, got "$"',
    );
  });
});

describe('barcodeDigits', () => {
  const transform = findTransform('barcodeDigits')?.apply;

  it('keeps 8 to 14 digits as they are, leading zeros included', () => {
    expect(transform?.('0012345678905', context)).toBe('0012345678905');
    expect(transform?.('12345670', context)).toBe('12345670');
  });

  it.each(['1234567', '123456789012345', '4006381 333931', '3.65275E+11'])('refuses %s', (v) => {
    expect(() => transform?.(v, context)).toThrow(TransformRejection);
  });
});
