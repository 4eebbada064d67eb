import { defineScript, reply } from '../../redis/index.js';

/** Extends the pause to at least `ms` from now (never shortens it). */
export const RATE_PAUSE = defineScript({
  keys: ['pause'],
  args: ['ms'],
  source: `local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`,
  parse: reply.none,
});
