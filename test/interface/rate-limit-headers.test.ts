import { describe, expect, it } from 'vitest';
import {
  hasRateLimitHeaders,
  readRateLimitHeaders,
} from '../../src/interface/rate-limit-headers.js';

const NOW = 1_800_000_000_000;

describe('rate-limit headers', () => {
  it('reads the IETF structured fields (RateLimit-Policy q and w, RateLimit r and t)', () => {
    expect(
      readRateLimitHeaders({
        'ratelimit-policy': '"default";q=100;w=60',
        ratelimit: '"default";r=42;t=10',
      }),
    ).toEqual({ format: 'ietf', quota: 100, windowSeconds: 60, remaining: 42, resetSeconds: 10 });
  });

  it("reads the earlier drafts' RateLimit-Limit/-Remaining/-Reset with a policy of `100;w=60`", () => {
    expect(
      readRateLimitHeaders({
        'ratelimit-limit': '100',
        'ratelimit-remaining': '0',
        'ratelimit-reset': '7',
        'ratelimit-policy': '100;w=60',
      }),
    ).toEqual({ format: 'ietf', quota: 100, windowSeconds: 60, remaining: 0, resetSeconds: 7 });
  });

  it('reads X-RateLimit-* with the reset as a delta or as epoch seconds (no window named)', () => {
    const delta = readRateLimitHeaders({
      'x-ratelimit-limit': '40',
      'x-ratelimit-remaining': '3',
      'x-ratelimit-reset': '2',
    });
    expect(delta).toEqual({ format: 'x', quota: 40, remaining: 3, resetSeconds: 2 });
    const epoch = readRateLimitHeaders(
      { 'x-ratelimit-limit': '40', 'x-ratelimit-reset': String(NOW / 1000 + 30) },
      NOW,
    );
    expect(epoch?.resetSeconds).toBe(30);
    expect(epoch?.windowSeconds).toBeUndefined();
  });

  it('says nothing of answers without a usable limit', () => {
    expect(readRateLimitHeaders(undefined)).toBeUndefined();
    expect(readRateLimitHeaders({ 'content-type': 'application/json' })).toBeUndefined();
    expect(readRateLimitHeaders({ 'x-ratelimit-limit': 'lots' })).toBeUndefined();
    expect(readRateLimitHeaders({ 'ratelimit-policy': '"p";w=60' })).toBeUndefined();
    expect(hasRateLimitHeaders({ 'content-type': 'text/plain' })).toBe(false);
    expect(hasRateLimitHeaders({ 'x-ratelimit-limit': '1' })).toBe(true);
  });
});
