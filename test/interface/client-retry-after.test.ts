import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/interface/retry-after.js';

const NOW = Date.parse('2025-03-01T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterMs('0', 60_000, 1_000, NOW)).toBe(0);
    expect(retryAfterMs(' 12 ', 60_000, 1_000, NOW)).toBe(12_000);
  });

  it('reads an HTTP-date relative to now', () => {
    expect(retryAfterMs('Sat, 01 Mar 2025 12:00:30 GMT', 60_000, 1_000, NOW)).toBe(30_000);
  });

  it('treats a date in the past as no wait', () => {
    expect(retryAfterMs('Sat, 01 Mar 2025 11:00:00 GMT', 60_000, 1_000, NOW)).toBe(0);
  });

  it('caps both forms', () => {
    expect(retryAfterMs('600', 5_000, 1_000, NOW)).toBe(5_000);
    expect(retryAfterMs('Sun, 02 Mar 2025 12:00:00 GMT', 5_000, 1_000, NOW)).toBe(5_000);
  });

  it('falls back to the default for a missing or unreadable value', () => {
    expect(retryAfterMs(undefined, 60_000, 1_000, NOW)).toBe(1_000);
    expect(retryAfterMs('soon', 60_000, 1_000, NOW)).toBe(1_000);
    expect(retryAfterMs('-3', 60_000, 1_000, NOW)).toBe(1_000);
    expect(retryAfterMs('1.5', 60_000, 1_000, NOW)).toBe(1_000);
    expect(retryAfterMs(undefined, 500, 1_000, NOW)).toBe(500);
  });
});
