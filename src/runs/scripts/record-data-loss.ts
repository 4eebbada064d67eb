import { defineScript, reply } from '../../redis/index.js';

/** Records a loss once per lost epoch, however many processes notice it; true when new. */
export const RECORD_DATA_LOSS = defineScript({
  keys: ['dataLoss'],
  args: ['previousEpoch', 'previousCreatedAt', 'detectedAt', 'detectedBy'],
  source: `if redis.call('HGET', KEYS[1], 'previousEpoch') == ARGV[1] then return 0 end
local count = redis.call('HGET', KEYS[1], 'count') or '0'
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'previousEpoch', ARGV[1], 'previousCreatedAt', ARGV[2],
  'detectedAt', ARGV[3], 'detectedBy', ARGV[4], 'count', tonumber(count) + 1)
return 1`,
  parse: reply.flag,
});
