import { defineScript, reply } from '../../redis/index.js';
import {
  HEADERS_FRESH_MS,
  HOLD_MS,
  MAX_DISCOVERED,
  NOW,
  PROBE_MIN_MS,
  RECOVER_MS,
  SLOW_START_MS,
} from './rate-window.js';

export interface RateTakeReply {
  /** 0 when the request may go, else the ms to wait. */
  waitMs: number;
  /** Grants taken (when waitMs is 0): the request's, and those the process may use next. */
  granted: number;
}

/**
 * Takes a grant of the shared window (a sorted set of grants; `limit` the hash of rate-window.ts;
 * `interactive` a marker). `fixedPerSecond` 0 means auto; `lane` is `interactive` or `bulk`.
 * An interactive request marks its lane busy for a window; meanwhile bulk may fill at most its
 * share of the window. While the window is less than half full, up to `block` grants are taken
 * at once (at most a fiftieth of the window's, so one grant at under 100 a window): the process
 * uses the others for its next requests (worker/rate-gate.ts), one round trip for all of them.
 */
export const RATE_TAKE = defineScript({
  keys: ['window', 'pause', 'sequence', 'limit', 'interactive'],
  args: ['fixedPerSecond', 'lane', 'bulkShare', 'startPerSecond', 'block'],
  source: `local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return {paused, 0} end
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
  local n = math.max(1, math.min(tonumber(ARGV[5]), math.floor(allowed / 50), math.floor(allowed / 2) - count))
  local last = redis.call('INCRBY', KEYS[3], n)
  local members = {}
  for seq = last - n + 1, last do
    members[#members + 1] = now
    members[#members + 1] = seq
  end
  redis.call('ZADD', KEYS[1], unpack(members))
  redis.call('PEXPIRE', KEYS[1], windowMs * 2)
  redis.call('PEXPIRE', KEYS[3], windowMs * 2)
  if discovered and count + n >= grants * 0.9 and now - (tonumber(h[6]) or 0) >= ${HOLD_MS} then
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
  return {0, n}
end
local edge = redis.call('ZRANGE', KEYS[1], count - allowed, count - allowed, 'WITHSCORES')
return {math.max(1, math.ceil(tonumber(edge[2]) + windowMs - now)), 0}`,
  parse: (value): RateTakeReply => {
    const [waitMs, granted] = reply.list(value);
    return { waitMs: reply.number(waitMs), granted: reply.number(granted) };
  },
});
