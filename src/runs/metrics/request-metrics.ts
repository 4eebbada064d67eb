/**
 * A worker's answers from the interface, counted in memory and added to the installation's
 * metrics hash every few seconds (one round trip, not one per request): requests by operation
 * and status, their durations as histogram buckets, and the 429s. Counted as numbers per
 * operation; the hash's field names are built only when they are written (a request costs no
 * string).
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

/** One operation's answers since the last flush. */
interface OperationCounts {
  byStatus: Map<number | 'error', number>;
  count: number;
  sum: number;
  /** Answers within each of DURATION_BUCKETS, index for index (cumulative, as Prometheus's). */
  buckets: number[];
}

export function startRequestMetrics(redis: RedisClient, metricsKey: string): RequestMetrics {
  let counts = new Map<string, OperationCounts>();
  let rateLimited = 0;

  async function flush(): Promise<void> {
    if (counts.size === 0 && rateLimited === 0) return;
    const [c, limited] = [counts, rateLimited];
    counts = new Map();
    rateLimited = 0;
    const multi = redis.multi();
    for (const [operationId, op] of c) {
      for (const [status, n] of op.byStatus) {
        multi.hincrby(metricsKey, requestsField(operationId, String(status)), n);
      }
      multi.hincrby(metricsKey, durationCountField(operationId), op.count);
      op.buckets.forEach((n, i) => {
        if (n > 0) {
          multi.hincrby(metricsKey, durationBucketField(operationId, DURATION_BUCKETS[i] ?? 0), n);
        }
      });
    }
    if (limited > 0) multi.hincrby(metricsKey, RATE_LIMITED_FIELD, limited);
    for (const [operationId, op] of c) {
      multi.hincrbyfloat(metricsKey, durationSumField(operationId), op.sum);
    }
    await multi.exec();
  }
  const timer = setInterval(() => void flush().catch(() => undefined), FLUSH_MS);
  timer.unref();

  return {
    record(operationId, status, seconds) {
      let op = counts.get(operationId);
      if (!op) {
        op = { byStatus: new Map(), count: 0, sum: 0, buckets: DURATION_BUCKETS.map(() => 0) };
        counts.set(operationId, op);
      }
      op.byStatus.set(status, (op.byStatus.get(status) ?? 0) + 1);
      if (status === 429) rateLimited += 1;
      op.count += 1;
      op.sum += seconds;
      for (let i = DURATION_BUCKETS.length - 1; i >= 0; i -= 1) {
        if (seconds > (DURATION_BUCKETS[i] as number)) break;
        op.buckets[i] = (op.buckets[i] as number) + 1;
      }
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
