import { defineScript, reply } from '../../redis/index.js';
import { HEADERS_FRESH_MS, HOLD_MS, NOW, PROBE_MAX_MS, PROBE_MIN_MS } from './rate-window.js';

/**
 * A 429: lowers the discovered rate (`startPerSecond` for a 429 before any grant was recorded),
 * at most once a second (the requests in flight get theirs together), and not at all while the
 * platform's headers size the window. Replies the new grants per second, or 0 when it left them
 * alone.
 */
export const RATE_REFUSED = defineScript({
  keys: ['limit'],
  args: ['startPerSecond'],
  source: `${NOW}
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
  parse: reply.none,
});
