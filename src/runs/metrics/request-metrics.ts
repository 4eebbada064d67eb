/**
 * A worker's answers from the interface, counted in memory and added to the installation's
 * metrics hash every few seconds (one round trip, not one per request): requests by platform,
 * operation and status, their durations as histogram buckets, and the 429s. Counted as numbers per
 * platform and operation; the field names are built only when they are written (a request costs no
 * string).
 */
import type { RedisClient } from '../../redis/index.js';
import {
  DURATION_BUCKETS,
  durationBucketField,
  durationCountField,
  durationSumField,
  rateLimitedField,
  requestsField,
} from './metric-fields.js';

const FLUSH_MS = 5_000;

export interface RequestMetrics {
  /** An answer of `platform` (its name: `default` for the top-level interface). */
  record(operationId: string, status: number | 'error', seconds: number, platform: string): void;
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

/** One platform's answers since the last flush: by operation, and its 429s. */
interface PlatformCounts {
  operations: Map<string, OperationCounts>;
  rateLimited: number;
}

export function startRequestMetrics(redis: RedisClient, metricsKey: string): RequestMetrics {
  let counts = new Map<string, PlatformCounts>();

  async function flush(): Promise<void> {
    if (counts.size === 0) return;
    const c = counts;
    counts = new Map();
    const multi = redis.multi();
    for (const [platform, { operations, rateLimited }] of c) {
      for (const [operationId, op] of operations) {
        for (const [status, n] of op.byStatus) {
          multi.hincrby(metricsKey, requestsField(operationId, String(status), platform), n);
        }
        multi.hincrby(metricsKey, durationCountField(operationId, platform), op.count);
        op.buckets.forEach((n, i) => {
          if (n > 0) {
            const le = DURATION_BUCKETS[i] ?? 0;
            multi.hincrby(metricsKey, durationBucketField(operationId, le, platform), n);
          }
        });
        multi.hincrbyfloat(metricsKey, durationSumField(operationId, platform), op.sum);
      }
      if (rateLimited > 0) multi.hincrby(metricsKey, rateLimitedField(platform), rateLimited);
    }
    await multi.exec();
  }
  const timer = setInterval(() => void flush().catch(() => undefined), FLUSH_MS);
  timer.unref();

  return {
    record(operationId, status, seconds, platform) {
      let mine = counts.get(platform);
      if (!mine) counts.set(platform, (mine = { operations: new Map(), rateLimited: 0 }));
      let op = mine.operations.get(operationId);
      if (!op) {
        op = { byStatus: new Map(), count: 0, sum: 0, buckets: DURATION_BUCKETS.map(() => 0) };
        mine.operations.set(operationId, op);
      }
      op.byStatus.set(status, (op.byStatus.get(status) ?? 0) + 1);
      if (status === 429) mine.rateLimited += 1;
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
