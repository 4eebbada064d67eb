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
 */
export const RATE_REFUSED = defineScript({
  keys: ['limit'],
  args: ['startPerSecond', 'fixedPerSecond', 'now'],
  source: `${clock(3)}
local h = redis.call('HMGET', KEYS[1], 'grants', 'dec', 'probe', 'found', 'hq', 'hs', 'hm', 'hmt')
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
local max = rate
if h[4] ~= '1' then
  rate = rate / 2
elseif now - dec < ${HOLD_MS} + 1000 then
  -- 429s one after another: the limit dropped. What met them says nothing of the new limit.
  rate = rate * 0.7
  max = rate
  probe = ${PROBE_MIN_MS}
else
  rate = rate * 0.97
  probe = math.min(${PROBE_MAX_MS}, probe * 2)
end
redis.call('HSET', KEYS[1], 'grants', math.max(1, rate), 'max', max, 'dec', now, 'inc', now, 'probe', probe, 'found', '1', 'step', ${PROBE_STEP})
return 1`,
  parse: reply.none,
});
