/**
 * The rate gate's Lua scripts. One sliding window of grants serves every worker process; with
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
import { luaScript } from '../../redis/index.js';

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

/** The limit hash's fields (KEYS[n] below is always the hash `limit`). */
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * KEYS: window (sorted set of the grants), pause, sequence, limit (hash), interactive (marker).
 * ARGV: fixed grants per second (0: auto), lane (`interactive` | `bulk`), bulk share, start rate.
 * Returns 0 when the request may go, else the ms to wait. An interactive request marks its lane
 * busy for a window; meanwhile bulk may fill at most its share of the window.
 */
export const TAKE = luaScript(
  `local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return paused end
${NOW}
local grants = tonumber(ARGV[1])
local windowMs = 1000
local discovered = false
local h
if grants == 0 then
  h = redis.call('HMGET', KEYS[4], 'grants', 'hq', 'hw', 'hs', 'inc', 'dec', 'probe', 'found', 'max')
  local hq = tonumber(h[2])
  if hq and now - (tonumber(h[4]) or 0) < ${HEADERS_FRESH_MS} then
    windowMs = tonumber(h[3])
    grants = math.max(1, math.min(hq - 1, math.floor(hq * 0.97)))
  else
    grants = tonumber(h[1]) or tonumber(ARGV[4])
    discovered = true
  end
end
local allowed = grants
if ARGV[2] == 'interactive' then
  redis.call('SET', KEYS[5], '1', 'PX', windowMs)
elseif redis.call('EXISTS', KEYS[5]) == 1 then
  allowed = math.max(1, math.floor(grants * tonumber(ARGV[3])))
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - windowMs)
local count = redis.call('ZCARD', KEYS[1])
if count < allowed then
  redis.call('ZADD', KEYS[1], now, redis.call('INCR', KEYS[3]))
  redis.call('PEXPIRE', KEYS[1], windowMs * 2)
  redis.call('PEXPIRE', KEYS[3], windowMs * 2)
  if discovered and count + 1 >= grants * 0.9 and now - (tonumber(h[6]) or 0) >= ${HOLD_MS} then
    local inc = tonumber(h[5]) or 0
    local probe = tonumber(h[7]) or ${PROBE_MIN_MS}
    local max = tonumber(h[9])
    if h[8] ~= '1' then
      if now - inc >= ${SLOW_START_MS} then
        redis.call('HSET', KEYS[4], 'grants', math.min(${MAX_DISCOVERED}, grants * 2), 'inc', now)
      end
    elseif max and grants < max - 1 then
      -- Well under the rate that met the last 429: halve the distance every second.
      if now - inc >= ${RECOVER_MS} then
        redis.call('HSET', KEYS[4], 'grants', grants + math.max(1, math.floor((max - 1 - grants) / 2)), 'inc', now)
      end
    elseif now - inc >= probe then
      -- Reaching here again means the last probe met no 429: probe sooner next time.
      redis.call('HSET', KEYS[4], 'grants', math.min(${MAX_DISCOVERED}, grants + math.max(1, math.floor(grants * 0.01))),
        'inc', now, 'probe', math.max(${PROBE_MIN_MS}, math.floor(probe / 2)))
    end
  end
  return 0
end
local edge = redis.call('ZRANGE', KEYS[1], count - allowed, count - allowed, 'WITHSCORES')
return math.max(1, math.ceil(tonumber(edge[2]) + windowMs - now))`,
  5,
);

/**
 * KEYS: limit. ARGV: the start rate (for a 429 before any grant was recorded). A 429 lowers the
 * discovered rate at most once a second (the requests in flight get theirs together), and not at
 * all while the platform's headers size the window. Returns the new grants per second, or 0 when
 * it left them alone.
 */
export const REFUSED = luaScript(
  `${NOW}
local h = redis.call('HMGET', KEYS[1], 'grants', 'dec', 'probe', 'found', 'hq', 'hs')
if tonumber(h[5]) and now - (tonumber(h[6]) or 0) < ${HEADERS_FRESH_MS} then return 0 end
local grants = tonumber(h[1]) or tonumber(ARGV[1])
local dec = tonumber(h[2]) or 0
if now - dec < 1000 then return 0 end
local probe = tonumber(h[3]) or ${PROBE_MIN_MS}
local max = grants
if h[4] ~= '1' then
  grants = math.max(1, math.floor(grants / 2))
elseif now - dec < ${HOLD_MS} + 1000 then
  -- 429s one after another: the limit dropped. What met them says nothing of the new limit.
  grants = math.max(1, math.floor(grants * 0.7))
  max = grants
  probe = ${PROBE_MIN_MS}
else
  grants = math.max(1, math.min(grants - 1, math.floor(grants * 0.97)))
  probe = math.min(${PROBE_MAX_MS}, probe * 2)
end
redis.call('HSET', KEYS[1], 'grants', grants, 'max', max, 'dec', now, 'inc', now, 'probe', probe, 'found', '1')
return grants`,
  1,
);

/** KEYS: limit. ARGV: quota, window ms. The platform's own figures, as its headers state them. */
export const OBSERVED = luaScript(
  `${NOW}
redis.call('HSET', KEYS[1], 'hq', ARGV[1], 'hw', ARGV[2], 'hs', now)
return 1`,
  1,
);

/** KEYS: pause key. ARGV: ms. Extends the pause to at least ms from now (never shortens it). */
export const PAUSE = luaScript(
  `local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`,
  1,
);
