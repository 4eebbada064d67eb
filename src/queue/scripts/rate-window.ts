/**
 * The rate gate's tuning, shared by its Lua scripts (rate-take.ts, rate-refused.ts,
 * rate-observed.ts, rate-pause.ts). One sliding window of grants serves every worker process; with
 * `delivery.ratePerSecond: auto` its size comes from the installation's limit hash:
 * - `headers`: the platform's own figures (quota per window), written by OBSERVE;
 * - `discovered`: grants per second found on the platform's 429s. Doubled every SLOW_START_MS while
 *   the window is full and no 429 came yet (slow start); a 429 halves it the first time, then takes
 *   3% off (at least one grant: a probe that went too far) or 30% (429s one after another: the
 *   limit dropped). While the window stays full it climbs back fast towards the rate that met the
 *   last 429 (half the distance a second), then probes beyond it by 1% every probe interval, an
 *   interval that doubles after each probe that met a 429 and halves after each that did not, so a
 *   steady limit is probed rarely and a raised one is found.
 * Time is Redis's own clock, so every process agrees whatever its own.
 */
export const SLOW_START_MS = 500;
/** Below the rate of the last 429, the distance to it is halved this often. */
export const RECOVER_MS = 1_000;
export const PROBE_MIN_MS = 5_000;
export const PROBE_MAX_MS = 120_000;
/** After a decrease, no increase for this long (the 429s of requests already granted arrive). */
export const HOLD_MS = 2_000;
/** Headers older than this no longer size the window (the platform stopped sending them). */
export const HEADERS_FRESH_MS = 60_000;
/** Highest discovered rate: beyond it the platform is not the bottleneck. */
export const MAX_DISCOVERED = 10_000;

/** Redis's clock in ms, as `now`. */
export const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
