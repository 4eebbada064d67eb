/**
 * Items delivered per minute across the installation, as the settle script counts them (one
 * counter per minute, kept two hours): the overview's chart of the last hour.
 */
import type { RedisClient } from '../../redis/index.js';
import type { DeliveryKeys } from '../keys.js';

export interface ThroughputPoint {
  /** Start of the minute, epoch seconds. */
  at: number;
  delivered: number;
}

export async function readThroughput(
  redis: RedisClient,
  keys: DeliveryKeys,
  now: number,
  minutes = 60,
): Promise<ThroughputPoint[]> {
  const last = Math.floor(now / 60_000);
  const wanted = Array.from({ length: minutes }, (_, i) => last - minutes + 1 + i);
  // One slot ({q}), so one MGET on a cluster too.
  const counts = await redis.mget(...wanted.map((m) => keys.throughput(m)));
  return wanted.map((m, i) => ({ at: m * 60, delivered: Number(counts[i] ?? 0) }));
}
