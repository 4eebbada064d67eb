import { defineScript, reply } from '../../redis/index.js';
import {
  HEADERS_FRESH_MS,
  HOLD_MS,
  MARGIN_BASE,
  MARGIN_MAX,
  MARGIN_STEP,
  PROBE_MAX_MS,
  PROBE_MIN_MS,
  PROBE_STEP,
  clock,
} from './rate-window.js';

/**
 * A 429, at most once a second (the requests in flight get theirs together). Under a stated limit
 * (`fixedPerSecond` > 0, or the platform's fresh headers) it widens the margin the window is
 * stretched by; else it lowers the discovered rate (from `startPerSecond` when none was recorded).
 * What met the 429 is the lower of the rate and the grants of the last second in `window` (what
 * the platform was really sent: the rate can be ahead of the requests there were), but no lower
 * than the last rate that held (half the rate in slow start, which doubled from there).
 */
export const RATE_REFUSED = defineScript({
  keys: ['limit', 'window'],
  args: ['startPerSecond', 'fixedPerSecond', 'now'],
  source: `${clock(3)}
local h = redis.call('HMGET', KEYS[1], 'grants', 'dec', 'probe', 'found', 'hq', 'hs', 'hm', 'hmt', 'lo', 'max')
if tonumber(ARGV[2]) > 0 or (tonumber(h[5]) and now - (tonumber(h[6]) or 0) < ${HEADERS_FRESH_MS}) then
  if now - (tonumber(h[8]) or 0) < 1000 then return 0 end
  local margin = math.min(${MARGIN_MAX}, (tonumber(h[7]) or ${MARGIN_BASE}) + ${MARGIN_STEP})
  redis.call('HSET', KEYS[1], 'hm', margin, 'hmt', now)
  return 1
end
local rate = tonumber(h[1]) or tonumber(ARGV[1])
local dec = tonumber(h[2]) or 0
if now - dec < 1000 then return 0 end
local probe = tonumber(h[3]) or ${PROBE_MIN_MS}
local lo = tonumber(h[9]) or 0
local found = h[4] == '1'
local sent = redis.call('ZCOUNT', KEYS[2], now - 1000, '+inf')
local met = math.max(found and lo or rate / 2, math.min(rate, sent))
local max = met
if not found then
  -- Slow start ends: the limit is under what met the 429, and (most likely) over half of it
  -- (also where slow start adds one request a second: it may have taken more than one step
  -- before the 429 came back).
  rate = met / 2
elseif rate > lo then
  -- A step up since the last rate that held went too far: back to that rate (a bisection: the
  -- next steps aim between it and what met this 429). Only a probe (a step from the target)
  -- that met a 429 makes the next probe wait longer.
  if lo >= (tonumber(h[10]) or 0) * 0.97 * 0.99 then probe = math.min(${PROBE_MAX_MS}, probe * 2) end
  rate = math.min(lo, met * 0.97)
elseif now - dec < ${HOLD_MS} + 1000 then
  -- 429s one after another at a rate that held: the limit dropped. What met them says nothing of
  -- the new limit.
  rate = rate * 0.7
  max = rate
  probe = ${PROBE_MIN_MS}
else
  -- A lone 429 at a rate that held: the grants' jitter crossed the limit.
  rate = rate * 0.97
  probe = math.min(${PROBE_MAX_MS}, probe * 2)
end
rate = math.max(1, rate)
redis.call('HSET', KEYS[1], 'grants', rate, 'lo', rate, 'max', max, 'dec', now, 'inc', now, 'probe', probe, 'found', '1', 'step', ${PROBE_STEP})
return 1`,
  parse: reply.none,
});
