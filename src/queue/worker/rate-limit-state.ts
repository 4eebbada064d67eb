/** The rate delivery keeps to now, as /metrics and `ferry status` show it. */
import type { FerryConfig } from '../../config/index.js';
import type { RedisClient } from '../../redis/index.js';
import type { DeliveryKeys } from '../../runs/index.js';
import { HEADERS_FRESH_MS, MARGIN_BASE } from '../scripts/rate-window.js';
import { START_PER_SECOND } from './rate-gate.js';

export interface RateLimitNow {
  /** Where the rate comes from: the config, the platform's headers, or its 429s. */
  source: 'configured' | 'headers' | 'discovered';
  /** Requests per second the gate grants at most (two decimals). */
  perSecond: number;
}

function twoDecimals(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Undefined when delivery is unlimited (`ratePerSecond: 0`). */
export async function readRateLimit(
  redis: RedisClient,
  keys: DeliveryKeys,
  delivery: FerryConfig['delivery'],
): Promise<RateLimitNow | undefined> {
  const rate = delivery.ratePerSecond;
  if (rate === 0) return undefined;
  const [grants, quota, windowMs, seenAt, storedMargin] = await redis.hmget(
    keys.rateLimit,
    'grants',
    'hq',
    'hw',
    'hs',
    'hm',
  );
  // A stated limit's window is stretched by the margin (scripts/rate-window.ts).
  const stretch = 1 + Number(storedMargin ?? MARGIN_BASE);
  if (rate !== 'auto') return { source: 'configured', perSecond: twoDecimals(rate / stretch) };
  const [seconds] = await redis.time();
  if (quota && windowMs && Number(seconds) * 1000 - Number(seenAt) < HEADERS_FRESH_MS) {
    const perSecond = Number(quota) / ((Number(windowMs) / 1000) * stretch);
    return { source: 'headers', perSecond: twoDecimals(perSecond) };
  }
  return { source: 'discovered', perSecond: twoDecimals(Number(grants ?? START_PER_SECOND)) };
}
