import { defineScript, reply } from '../../redis/index.js';

/** Buckets of `rq:<n>` a run keeps: the forecast reads the last minute's and the current one. */
export const REQUEST_BUCKETS_KEPT = 8;

/**
 * Adds a worker's count of a run's requests answered to its record (metrics/run-requests.ts): the
 * total, the bucket's, and `sentSince` when `since` is earlier; the bucket that fell out of the
 * kept ones goes. A run that is gone (expired, deleted) is left gone: replies 0, else 1.
 */
export const ADD_SENT_REQUESTS = defineScript({
  keys: ['run'],
  args: ['requests', 'bucket', 'since'],
  source: `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'sent', ARGV[1])
redis.call('HINCRBY', KEYS[1], 'rq:' .. ARGV[2], ARGV[1])
redis.call('HDEL', KEYS[1], 'rq:' .. (tonumber(ARGV[2]) - ${REQUEST_BUCKETS_KEPT}))
local since = redis.call('HGET', KEYS[1], 'sentSince')
if not since or tonumber(ARGV[3]) < tonumber(since) then
  redis.call('HSET', KEYS[1], 'sentSince', ARGV[3])
end
return 1`,
  parse: reply.flag,
});
