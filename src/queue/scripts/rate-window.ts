/**
 * The rate gate's tuning, shared by its Lua scripts (rate-take.ts, rate-refused.ts,
 * rate-observed.ts, rate-pause.ts). One sliding window of grants serves every worker process: no
 * window (of any start) holds more than `grants`. Its size comes from the installation's limit hash:
 * - a stated limit, `quota` per `span` (the platform's headers, written by OBSERVE, or
 *   `delivery.ratePerSecond`): `quota` grants per span stretched by a margin (MARGIN_BASE), so a
 *   request granted at the end of one of the platform's windows that arrives in the next finds no
 *   more than `quota` there. A 429 all the same (the grants' jitter on their way is wider) widens
 *   the margin by MARGIN_STEP, up to MARGIN_MAX; it narrows again by half a step every
 *   MARGIN_EASE_MS without one.
 * - `discovered`: a rate per second (real: 3.9/s is 4 grants per 1026 ms) found on the platform's
 *   429s. Doubled every SLOW_START_MS while half the window is used and no 429 came yet (slow
 *   start; one request a second more under SLOW_START_LINEAR; a full window asks again when the
 *   rate may step, not when its oldest grant leaves).
 *   The first 429 halves what met it: the rate, or the grants of the last second when they were
 *   fewer (rate-refused.ts). While the window stays full the rate climbs back fast towards 97% of
 *   what met the last 429 (half the distance a second); a step that meets a 429 goes back to the
 *   rate it left (`lo`, which held): a bisection between the two. At a rate that held, a 429 takes
 *   3% off (the grants' jitter) or 30% (429s one after another: the limit dropped). Near its
 *   target the rate probes beyond it every probe interval: 1% at first, twice as far after each
 *   probe that met no 429 (up to doubling it). The interval doubles after each probe that met a
 *   429 and halves after each probe that met none once two in a row did, so a steady limit is
 *   probed rarely (the 1% and 2% probes after a 429 come back to the rate that met it) and a
 *   raised one (or cheaper requests: a cost-based limit that met 100-item batches, then single
 *   prices) is found within seconds, not hours.
 * Time is Redis's own clock, so every process agrees whatever its own (a test may pass `now`).
 */
/** Slow start steps at most this often (the 429 of a step is back before the next). */
export const SLOW_START_MS = 200;
/**
 * Under this rate slow start adds one request a second instead of doubling: at 4/s, a doubling
 * that goes too far (to 8) costs about four 429s of a run's few hundred requests; one more
 * request a second, one.
 */
export const SLOW_START_LINEAR = 8;
/** Below 97% of the rate of the last 429, the distance to it is halved this often. */
export const RECOVER_MS = 1_000;
export const PROBE_MIN_MS = 5_000;
export const PROBE_MAX_MS = 120_000;
/** A probe's first step beyond the rate, doubled by each probe that met no 429, up to the max. */
export const PROBE_STEP = 0.01;
export const PROBE_STEP_MAX = 1;
/** After a decrease, no increase for this long (the 429s of requests already granted arrive). */
export const HOLD_MS = 2_000;
/** Headers older than this no longer size the window (the platform stopped sending them). */
export const HEADERS_FRESH_MS = 60_000;
/**
 * Highest discovered rate: beyond it the platform is not the bottleneck. Well above what one
 * installation sends, so a delivery under it keeps its window under half full and takes its grants
 * in blocks (rate-take.ts); the window then holds up to this many grants a second (~3 MB).
 */
export const MAX_DISCOVERED = 50_000;
/** A stated limit's window is stretched by this share at least (3%: 40/s is 38.8/s)... */
export const MARGIN_BASE = 0.03;
/** ...widened by this on a 429 (at most once a second)... */
export const MARGIN_STEP = 0.02;
export const MARGIN_MAX = 0.25;
/** ...and narrowed by half a step this often without a 429. */
export const MARGIN_EASE_MS = 30_000;

/**
 * `now` in ms: ARGV[arg] when the caller passed one (a test's clock), else Redis's clock.
 */
export function clock(arg: number): string {
  return `local now = tonumber(ARGV[${arg}])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end`;
}
