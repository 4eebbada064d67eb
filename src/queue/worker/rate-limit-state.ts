/** The rate delivery keeps to now, as /metrics and `ferry status` show it. */
import type { FerryConfig } from '../../config/index.js';
import type { RedisClient } from '../../redis/index.js';
import type { DeliveryKeys } from '../../runs/index.js';
import { HEADERS_FRESH_MS } from '../scripts/rate-window.js';
import { START_PER_SECOND, grantsPerSecond } from './rate-gate.js';

export interface RateLimitNow {
  /** Where the rate comes from: the config, the platform's headers, or its 429s. */
  source: 'configured' | 'headers' | 'discovered';
  /** Requests per second the gate grants at most. */
  perSecond: number;
}

/** Undefined when delivery is unlimited (`ratePerSecond: 0`). */
export async function readRateLimit(
  redis: RedisClient,
  keys: DeliveryKeys,
  delivery: FerryConfig['delivery'],
): Promise<RateLimitNow | undefined> {
  const rate = delivery.ratePerSecond;
  if (rate === 0) return undefined;
  if (rate !== 'auto') return { source: 'configured', perSecond: grantsPerSecond(rate) };
  const [grants, quota, windowMs, seenAt] = await redis.hmget(
    keys.rateLimit,
    'grants',
    'hq',
    'hw',
    'hs',
  );
  const [seconds] = await redis.time();
  if (quota && windowMs && Number(seconds) * 1000 - Number(seenAt) < HEADERS_FRESH_MS) {
    return {
      source: 'headers',
      perSecond: grantsPerSecond(Number(quota)) / (Number(windowMs) / 1000),
    };
  }
  return { source: 'discovered', perSecond: Number(grants ?? START_PER_SECOND) };
}
