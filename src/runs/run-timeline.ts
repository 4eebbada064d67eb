/**
 * A run's items delivered over time: the settle script adds each job's delivered items to the
 * run's `tl:<n>` field (n: 10-second buckets since the epoch), read back here for the run page.
 */
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';
import { TIMELINE_BUCKET_MS } from './scripts/settle-job.js';

export interface TimelinePoint {
  /** Start of the bucket, epoch seconds. */
  at: number;
  delivered: number;
}

/**
 * Every bucket from the run's start to its end (or now, while it runs), those without deliveries
 * as zeros, and a zero on either side (so that a run of a few seconds still draws a line); empty
 * when nothing was delivered.
 */
export async function readRunTimeline(
  redis: RedisClient,
  keys: DeliveryKeys,
  runId: string,
  span: { from: number; to: number },
): Promise<TimelinePoint[]> {
  const fields = await redis.hgetall(keys.run(runId));
  const counts = new Map<number, number>();
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith('tl:')) counts.set(Number(field.slice(3)), Number(value));
  }
  if (counts.size === 0) return [];
  let first = Math.floor(span.from / TIMELINE_BUCKET_MS);
  let last = Math.floor(span.to / TIMELINE_BUCKET_MS);
  for (const n of counts.keys()) {
    first = Math.min(first, n);
    last = Math.max(last, n);
  }
  const points: TimelinePoint[] = [];
  for (let n = first - 1; n <= last + 1; n++) {
    points.push({ at: (n * TIMELINE_BUCKET_MS) / 1000, delivered: counts.get(n) ?? 0 });
  }
  return points;
}
