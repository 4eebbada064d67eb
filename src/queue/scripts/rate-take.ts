import { defineScript, reply } from '../../redis/index.js';
import {
  HEADERS_FRESH_MS,
  HOLD_MS,
  MARGIN_BASE,
  MARGIN_EASE_MS,
  MARGIN_STEP,
  MAX_DISCOVERED,
  PROBE_MIN_MS,
  PROBE_STEP,
  PROBE_STEP_MAX,
  RECOVER_MS,
  SLOW_START_LINEAR,
  SLOW_START_MS,
  clock,
} from './rate-window.js';

export interface RateTakeReply {
  /** 0 when the request may go, else the ms to wait. */
  waitMs: number;
  /** Grants taken when it may go: the request's, and those the process may use next. */
  granted: number;
}

/**
 * Takes a grant of the shared window (a sorted set of grants; `limit` the hash of rate-window.ts;
 * `interactive` a marker). `fixedPerSecond` 0 means auto; `lane` is `interactive` or `bulk`.
 * An interactive request marks its lane busy for a window; meanwhile bulk may fill at most its
 * share of the window. While the window is less than half full, up to `block` grants are taken at
 * once (at most a fiftieth of the window's, so one at a time under 100 a window, where it must be
 * exact): the process uses the others for its next requests (worker/rate-gate.ts).
 */
export const RATE_TAKE = defineScript({
  keys: ['window', 'pause', 'sequence', 'limit', 'interactive'],
  args: ['fixedPerSecond', 'lane', 'bulkShare', 'startPerSecond', 'block', 'now'],
  source: `local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return {paused, 0} end
${clock(6)}
local h = redis.call('HMGET', KEYS[4], 'grants', 'hq', 'hw', 'hs', 'inc', 'dec', 'probe', 'found', 'max', 'hm', 'hmt', 'step')
-- A stated limit: quota per span (ms), from the config or the platform's fresh headers.
local quota = tonumber(ARGV[1])
local span = 1000
if quota == 0 then
  quota = nil
  if tonumber(h[2]) and now - (tonumber(h[4]) or 0) < ${HEADERS_FRESH_MS} then
    quota = tonumber(h[2])
    span = tonumber(h[3])
  end
end
local grants, windowMs, rate, doubleAt
if quota then
  local margin = tonumber(h[10]) or ${MARGIN_BASE}
  if margin > ${MARGIN_BASE} and now - (tonumber(h[11]) or 0) >= ${MARGIN_EASE_MS} then
    margin = math.max(${MARGIN_BASE}, margin - ${MARGIN_STEP / 2})
    redis.call('HSET', KEYS[4], 'hm', margin, 'hmt', now)
  end
  grants = quota
  windowMs = math.floor(span * (1 + margin) + 0.5)
else
  rate = tonumber(h[1]) or tonumber(ARGV[4])
  grants = math.ceil(rate - 1e-9)
  windowMs = math.ceil(1000 * grants / rate)
  if h[8] ~= '1' then
    -- Slow start: nothing refused yet. Twice the rate every SLOW_START_MS while half the window is
    -- used, at the ask that finds it so (a full window would wait for its oldest grant to leave);
    -- one request a second more while under SLOW_START_LINEAR, where the burst of a doubling that
    -- goes too far (4 to 8 against a limit of 4) would all be refused.
    doubleAt = (tonumber(h[5]) or 0) + ${SLOW_START_MS}
    if now >= doubleAt and redis.call('ZCOUNT', KEYS[1], '(' .. (now - windowMs), '+inf') + 1 >= grants / 2 then
      if rate < ${SLOW_START_LINEAR} then rate = rate + 1 else rate = math.min(${MAX_DISCOVERED}, rate * 2) end
      redis.call('HSET', KEYS[4], 'grants', rate, 'inc', now)
      doubleAt = now + ${SLOW_START_MS}
      grants = math.ceil(rate - 1e-9)
      windowMs = math.ceil(1000 * grants / rate)
    end
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
  if rate and h[8] == '1' and count + n >= grants * 0.9 and now - (tonumber(h[6]) or 0) >= ${HOLD_MS} then
    local inc = tonumber(h[5]) or 0
    local probe = tonumber(h[7]) or ${PROBE_MIN_MS}
    local target = (tonumber(h[9]) or 0) * 0.97
    if rate < target * 0.99 then
      -- Well under the rate that met the last 429: halve the distance every second (the rate
      -- left behind held: a 429 brings the rate back to it, rate-refused.ts).
      if now - inc >= ${RECOVER_MS} then
        redis.call('HSET', KEYS[4], 'grants', rate + (target - rate) / 2, 'inc', now, 'lo', rate)
      end
    elseif now - inc >= probe then
      -- Reaching here again means the last probe met no 429: probe twice as far next time (a
      -- limit raised, or requests that cost less than those that met the 429s), and sooner once
      -- two in a row met none (the step is then 4% or more). The first probe after a 429 holding
      -- says nothing new: the one after it repeats the step that met the 429, so halving the
      -- interval there undid its doubling (at 4/s: a 429 every 10-15 s, 2% of the requests).
      local step = tonumber(h[12]) or ${PROBE_STEP}
      if step > ${PROBE_STEP * 3} then probe = math.max(${PROBE_MIN_MS}, math.floor(probe / 2)) end
      redis.call('HSET', KEYS[4], 'grants', math.min(${MAX_DISCOVERED}, rate * (1 + step)),
        'inc', now, 'lo', rate, 'probe', probe, 'step', math.min(${PROBE_STEP_MAX}, step * 2))
    end
  end
  return {0, n}
end
local edge = redis.call('ZRANGE', KEYS[1], count - allowed, count - allowed, 'WITHSCORES')
local wait = math.ceil(tonumber(edge[2]) + windowMs - now)
-- In slow start, ask again when the rate may double rather than when the window has room.
if doubleAt then wait = math.min(wait, doubleAt - now) end
return {math.max(1, wait), 0}`,
  parse: (value): RateTakeReply => {
    const [waitMs, granted] = reply.list(value);
    return { waitMs: reply.number(waitMs), granted: reply.number(granted) };
  },
});
