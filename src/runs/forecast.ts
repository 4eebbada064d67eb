/**
 * When a running run will end (docs/DELIVERY.md, Forecast): the requests it has left (planned
 * minus sent), the rate it achieved over the last minute, and now + left / rate. From the run's
 * record alone, so `ferry runs`, the console and the workers' `late` check agree. The rate is the
 * recent one, not the run's average, so that a platform that slows down (or a limit that lifts)
 * shows within a minute. After a resume (a blocked run sending again) it is measured from the
 * resume: the blocked minutes sent nothing, and would make a run about to end look hours away.
 */
import { REQUEST_BUCKET_MS } from './metrics/run-requests.js';
import type { RunRecord } from './run-record.js';

/** The rate is measured over the last minute, and what of the current 10 s went by. */
export const RATE_WINDOW_MS = 60_000;
/** Until a run has sent for this long, and this many requests, its rate is not measured yet. */
export const MIN_MEASURED_MS = 10_000;
export const MIN_MEASURED_REQUESTS = 10;

/**
 * The forecast of a running run. While measuring only `remainingRequests`; with a rate of 0 (no
 * request answered over the last minute) no `finishAt`.
 */
export interface RunForecast {
  remainingRequests: number;
  /** Requests answered per second over the last minute, to two decimals. */
  requestsPerSecond?: number;
  /** ISO time, to the second. */
  finishAt?: string;
}

/** None for a run that is not running (blocked, cancelling, over) or plans no requests. */
export function forecastRun(run: RunRecord, now: number): RunForecast | undefined {
  if (run.status !== 'running') return undefined;
  const planned = run.stages.reduce((n, s) => n + s.requests, 0);
  if (planned === 0) return undefined;
  const remainingRequests = Math.max(0, planned - run.sent.requests);
  const since =
    run.sent.since === undefined ? undefined : Math.max(run.sent.since, run.resumedAt ?? 0);
  if (since === undefined) return { remainingRequests };
  const first = Math.floor((now - RATE_WINDOW_MS) / REQUEST_BUCKET_MS);
  const from = Math.max(first * REQUEST_BUCKET_MS, since);
  let requests = 0;
  for (
    let n = Math.floor(from / REQUEST_BUCKET_MS);
    n <= Math.floor(now / REQUEST_BUCKET_MS);
    n += 1
  ) {
    requests += run.sent.perBucket[n] ?? 0;
  }
  // A full window measures whatever it holds, none included (a run that stopped sending).
  const full = from > since;
  if (now - from < MIN_MEASURED_MS || (!full && requests < MIN_MEASURED_REQUESTS)) {
    return { remainingRequests };
  }
  const rate = requests / ((now - from) / 1000);
  const forecast: RunForecast = {
    remainingRequests,
    requestsPerSecond: Math.round(rate * 100) / 100,
  };
  if (rate > 0) {
    const finish = now + (remainingRequests / rate) * 1000;
    forecast.finishAt = new Date(Math.round(finish / 1000) * 1000).toISOString();
  }
  return forecast;
}

/** The forecast in words: "1,234 requests left at 3.9/s", "measuring…", "nothing sent …". */
export function forecastText(forecast: RunForecast): string {
  const left = `${forecast.remainingRequests.toLocaleString('en-US')} requests left`;
  if (forecast.requestsPerSecond === undefined) return `${left}, measuring…`;
  if (forecast.finishAt === undefined) return `${left}, none answered in the last minute`;
  return `${left} at ${forecast.requestsPerSecond}/s`;
}
