import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/interface/backoff.js';

const settings = { baseMs: 100, capMs: 1_000 };

describe('exponential backoff with full jitter', () => {
  it('grows by powers of two up to the cap', () => {
    const top = (attempt: number) => backoffDelay(attempt, settings, () => 0.999999);
    expect(top(1)).toBe(99);
    expect(top(2)).toBe(199);
    expect(top(3)).toBe(399);
    expect(top(4)).toBe(799);
    expect(top(5)).toBe(999);
    expect(top(40)).toBe(999);
  });

  it('draws anywhere from zero to the ceiling (full jitter)', () => {
    expect(backoffDelay(3, settings, () => 0)).toBe(0);
    expect(backoffDelay(3, settings, () => 0.5)).toBe(200);
  });
});
