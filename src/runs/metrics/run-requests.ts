/**
 * The requests each run sent, as a worker process counts them: what a run's forecast measures its
 * rate on (forecast.ts). Counted per request answered, not per job settled: a job of 100 price
 * requests at 2 requests/s settles once in 50 s, too seldom to measure by. Added to the run's
 * record every second, one script call per run (not one per request): per 10 s every request
 * answered, whatever the answer (`rq:<n>`, n: buckets since the epoch; the ones older than the
 * forecast's window are dropped as new ones come: the platform's rate), in all those done with
 * (`sent`: confirmed or refused, not to be sent again; a transient failure goes again, so it
 * does not take one off the requests left) and since when (`sentSince`: the earliest first
 * answer any process counted).
 */
import { type RedisClient, runScript } from '../../redis/index.js';
import type { DeliveryKeys } from '../keys.js';
import { ADD_SENT_REQUESTS } from '../scripts/add-sent-requests.js';

const FLUSH_MS = 1_000;
/** Width of the `rq:<n>` buckets. */
export const REQUEST_BUCKET_MS = 10_000;

export interface RunRequestCounter {
  /** One request of the run was answered; `done`: it will not be sent again (not a failure to retry). */
  count(runId: string, done: boolean): void;
  /** Writes what is counted and stops the timer. */
  close(): Promise<void>;
}

export function startRunRequestCounter(redis: RedisClient, keys: DeliveryKeys): RunRequestCounter {
  let counts = new Map<string, { requests: number; done: number; since: number }>();

  async function flush(): Promise<void> {
    if (counts.size === 0) return;
    const batch = counts;
    counts = new Map();
    const now = Date.now();
    const bucket = Math.floor(now / REQUEST_BUCKET_MS);
    await Promise.all(
      [...batch].map(([runId, c]) =>
        runScript(
          redis,
          ADD_SENT_REQUESTS,
          { run: keys.run(runId) },
          { requests: c.requests, done: c.done, bucket, since: c.since },
        ),
      ),
    );
  }
  const timer = setInterval(() => void flush().catch(() => undefined), FLUSH_MS);
  timer.unref();

  return {
    count(runId, done) {
      const c = counts.get(runId);
      if (c) {
        c.requests += 1;
        if (done) c.done += 1;
      } else counts.set(runId, { requests: 1, done: done ? 1 : 0, since: Date.now() });
    },
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
