/**
 * A worker's answers from the interface, counted in memory and added to the installation's
 * metrics hash every few seconds (one round trip, not one per request): requests by operation
 * and status, their durations as histogram buckets, and the 429s.
 */
import type { RedisClient } from '../../redis/index.js';
import {
  DURATION_BUCKETS,
  durationBucketField,
  durationCountField,
  durationSumField,
  RATE_LIMITED_FIELD,
  requestsField,
} from './metric-fields.js';

const FLUSH_MS = 5_000;

export interface RequestMetrics {
  record(operationId: string, status: number | 'error', seconds: number): void;
  /** Writes what is counted and stops the timer. */
  close(): Promise<void>;
}

export function startRequestMetrics(redis: RedisClient, metricsKey: string): RequestMetrics {
  let counts = new Map<string, number>();
  let sums = new Map<string, number>();
  const add = (field: string, n: number): void =>
    void counts.set(field, (counts.get(field) ?? 0) + n);

  async function flush(): Promise<void> {
    if (counts.size === 0) return;
    const [c, s] = [counts, sums];
    counts = new Map();
    sums = new Map();
    const multi = redis.multi();
    for (const [field, n] of c) multi.hincrby(metricsKey, field, n);
    for (const [field, n] of s) multi.hincrbyfloat(metricsKey, field, n);
    await multi.exec();
  }
  const timer = setInterval(() => void flush().catch(() => undefined), FLUSH_MS);
  timer.unref();

  return {
    record(operationId, status, seconds) {
      add(requestsField(operationId, String(status)), 1);
      if (status === 429) add(RATE_LIMITED_FIELD, 1);
      add(durationCountField(operationId), 1);
      sums.set(
        durationSumField(operationId),
        (sums.get(durationSumField(operationId)) ?? 0) + seconds,
      );
      for (const le of DURATION_BUCKETS) {
        if (seconds <= le) add(durationBucketField(operationId, le), 1);
      }
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
