/**
 * A run's forecast (src/runs/forecast.ts) from its record at a given time: requests left, the
 * rate over the last minute (not the whole run's), the finish; "measuring" at first; none for a
 * run that is not running. The clock is the test's: records are built as the workers write them.
 */
import { describe, expect, it } from 'vitest';
import { forecastRun, forecastText } from '../../src/runs/forecast.js';
import { REQUEST_BUCKET_MS } from '../../src/runs/metrics/run-requests.js';
import { parseRun, type RunRecord } from '../../src/runs/run-record.js';

/** 12:00:00 UTC, on a bucket boundary. */
const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const SECOND = 1_000;

/**
 * A run of 1,000 planned requests (two stages) that started sending at T0 and answered
 * `perSecond(t)` requests in each second t after it, as the workers' counters write them.
 */
function runAt(
  now: number,
  perSecond: (t: number) => number,
  status = 'running',
  planned: [number, number] = [400, 600],
): RunRecord {
  const fields: Record<string, string> = {
    id: 'catalog-1',
    pipeline: 'catalog',
    status,
    createdAt: String(T0 - 5 * SECOND),
    stages: JSON.stringify([
      { index: 0, operationIds: ['products.put'], jobs: 4, requests: planned[0] },
      { index: 1, operationIds: ['products.prices.patch'], jobs: 6, requests: planned[1] },
    ]),
  };
  let sent = 0;
  const buckets = new Map<number, number>();
  for (let t = 0; T0 + (t + 1) * SECOND <= now; t += 1) {
    const n = perSecond(t);
    if (n === 0) continue;
    sent += n;
    const bucket = Math.floor((T0 + t * SECOND) / REQUEST_BUCKET_MS);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + n);
  }
  if (sent > 0) {
    fields.sent = String(sent);
    fields.sentSince = String(T0);
  }
  for (const [bucket, n] of buckets) fields[`rq:${bucket}`] = String(n);
  return parseRun(fields)!;
}

describe('forecastRun', () => {
  it('says measuring until the run has sent for a while, and none was sent yet', () => {
    expect(
      forecastRun(
        runAt(T0, () => 0),
        T0,
      ),
    ).toEqual({ remainingRequests: 1000 });
    const early = T0 + 6 * SECOND;
    expect(
      forecastRun(
        runAt(early, () => 5),
        early,
      ),
    ).toEqual({ remainingRequests: 970 });
    expect(
      forecastText(
        forecastRun(
          runAt(early, () => 5),
          early,
        )!,
      ),
    ).toBe('970 requests left, measuring…');
    // Ten seconds of sending, but too few requests to measure by.
    const slow = T0 + 20 * SECOND;
    expect(
      forecastRun(
        runAt(slow, (t) => (t % 5 === 0 ? 1 : 0)),
        slow,
      ),
    ).toEqual({
      remainingRequests: 996,
    });
  });

  it('forecasts the finish at the rate of the last minute', () => {
    const now = T0 + 30 * SECOND;
    const forecast = forecastRun(
      runAt(now, () => 4),
      now,
    );
    expect(forecast).toEqual({
      remainingRequests: 880,
      requestsPerSecond: 4,
      finishAt: new Date(now + 220 * SECOND).toISOString(),
    });
    expect(forecastText(forecast!)).toBe('880 requests left at 4/s');
  });

  it('follows a change of rate within a minute, not the average of the run', () => {
    // 8/s for five minutes, then the platform halves its limit: 4/s.
    const rate = (t: number): number => (t < 300 ? 8 : 4);
    const justAfter = T0 + 310 * SECOND;
    const after = T0 + 400 * SECOND;
    const planned: [number, number] = [2000, 3000];
    const before = forecastRun(runAt(justAfter, rate, 'running', planned), justAfter)!;
    expect(before.requestsPerSecond).toBeGreaterThan(4);
    const settled = forecastRun(runAt(after, rate, 'running', planned), after)!;
    const sent = 300 * 8 + 100 * 4;
    expect(settled).toEqual({
      remainingRequests: 5000 - sent,
      requestsPerSecond: 4,
      finishAt: new Date(after + ((5000 - sent) / 4) * SECOND).toISOString(),
    });
    // The whole run's average (7/s) would have said the run ends much sooner.
    expect(Date.parse(settled.finishAt!)).toBeGreaterThan(after + ((5000 - sent) / 7) * SECOND);
  });

  it('has a rate of 0 and no finish when nothing was answered over the last minute', () => {
    const now = T0 + 200 * SECOND;
    const forecast = forecastRun(
      runAt(now, (t) => (t < 100 ? 5 : 0)),
      now,
    );
    expect(forecast).toEqual({ remainingRequests: 500, requestsPerSecond: 0 });
    expect(forecastText(forecast!)).toBe('500 requests left, none answered in the last minute');
  });

  it('gives none for a run that is not running, or plans no requests', () => {
    const now = T0 + 30 * SECOND;
    for (const status of ['blocked', 'cancelling', 'succeeded', 'partial', 'cancelled']) {
      expect(
        forecastRun(
          runAt(now, () => 4, status),
          now,
        ),
        status,
      ).toBeUndefined();
    }
    expect(
      forecastRun(
        runAt(now, () => 0, 'running', [0, 0]),
        now,
      ),
    ).toBeUndefined();
  });

  it('never counts more left than nothing: retried requests are sent again', () => {
    const now = T0 + 30 * SECOND;
    const forecast = forecastRun(
      runAt(now, () => 4, 'running', [50, 50]),
      now,
    );
    expect(forecast).toEqual({
      remainingRequests: 0,
      requestsPerSecond: 4,
      finishAt: new Date(now).toISOString(),
    });
  });

  it('measures a resumed run from its resume, not over the minutes it was blocked', () => {
    // 50/s for 30 s, blocked (nothing answered) until 120 s, resumed, 50/s again: at 135 s the
    // last minute holds 45 blocked seconds; the rate is the resumed one's.
    const sending = (t: number) => (t < 30 || t >= 120 ? 50 : 0);
    const at = (seconds: number) => {
      const run = runAt(T0 + seconds * SECOND, sending, 'running', [4_000, 6_000]);
      run.resumedAt = T0 + 120 * SECOND;
      return forecastRun(run, T0 + seconds * SECOND);
    };
    // Right after the resume: measuring, not "hours left at a fraction of the rate".
    expect(at(126)).toEqual({ remainingRequests: 10_000 - 1_500 - 300 });
    expect(at(135)).toMatchObject({
      remainingRequests: 10_000 - 1_500 - 750,
      requestsPerSecond: 50,
    });
  });
});
