import { defineScript, reply } from '../../redis/index.js';

/**
 * Counts a platform-wide refusal in the pipeline's breaker (worker/breaker.ts). Replies 0
 * counting, 1 this refusal blocked the pipeline, 2 it was blocked already. A breaker left by
 * another run (cancelled while blocked) starts afresh.
 */
export const BREAKER_REFUSED = defineScript({
  keys: ['breaker', 'run', 'metrics'],
  args: ['threshold', 'reason', 'now', 'runId', 'pipeline', 'reasonText'],
  source: `local owner = redis.call('HGET', KEYS[1], 'runId')
if owner and owner ~= ARGV[4] then
  local old = redis.call('HGET', KEYS[1], 'reason')
  if old then redis.call('HSET', KEYS[3], 'blocked|' .. ARGV[5] .. '|' .. old, 0) end
  redis.call('DEL', KEYS[1])
end
redis.call('HSET', KEYS[1], 'runId', ARGV[4])
local streak = redis.call('HINCRBY', KEYS[1], 'streak', 1)
if redis.call('HGET', KEYS[1], 'blocked') == '1' then return 2 end
if streak < tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'blocked', '1', 'reason', ARGV[2], 'since', ARGV[3], 'lastProbe', ARGV[3])
if redis.call('HGET', KEYS[2], 'status') == 'running' then
  redis.call('HSET', KEYS[2], 'status', 'blocked', 'blockedReason', ARGV[6], 'blockedAt', ARGV[3])
end
redis.call('HSET', KEYS[3], 'blocked|' .. ARGV[5] .. '|' .. ARGV[2], 1)
return 1`,
  parse: reply.code(['counting', 'blocked-now', 'blocked']),
});
