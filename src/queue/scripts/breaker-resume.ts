import { defineScript, reply } from '../../redis/index.js';

/**
 * Resumes a blocked pipeline (worker/breaker.ts): `streak` is 'reset' to end the streak (an
 * answer passed) or 'keep' (an operator's resume: one more refusal blocks again); its run goes
 * back to `running`, sending again from `now` (`resumedAt`: its forecast measures from there).
 * Replies 1 when it was blocked.
 */
export const BREAKER_RESUME = defineScript({
  keys: ['breaker', 'run', 'metrics'],
  args: ['pipeline', 'streak', 'now'],
  source: `local reason = redis.call('HGET', KEYS[1], 'reason')
local blocked = redis.call('HGET', KEYS[1], 'blocked')
if ARGV[2] == 'reset' then
  redis.call('DEL', KEYS[1])
else
  redis.call('HDEL', KEYS[1], 'blocked', 'reason', 'probe')
  redis.call('HINCRBY', KEYS[1], 'streak', -1)
end
if redis.call('HGET', KEYS[2], 'status') == 'blocked' then
  redis.call('HSET', KEYS[2], 'status', 'running', 'resumedAt', ARGV[3])
  redis.call('HDEL', KEYS[2], 'blockedReason')
end
if blocked ~= '1' then return 0 end
redis.call('HSET', KEYS[3], 'blocked|' .. ARGV[1] .. '|' .. reason, 0)
return 1`,
  parse: reply.flag,
});
