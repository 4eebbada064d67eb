import { defineScript, reply } from '../../redis/index.js';

/**
 * The version a run's items carry: Redis's clock in ms, or one more than the pipeline's last
 * version when that is ahead, so versions only grow whichever host starts the run.
 */
export const NEXT_VERSION = defineScript({
  keys: ['versions'],
  args: ['pipeline'],
  source: `local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local v = math.max(now, last + 1)
redis.call('HSET', KEYS[1], ARGV[1], v)
return v`,
  parse: reply.number,
});
