import { defineScript, reply } from '../../redis/index.js';

/** Buckets of `rq:<n>` a run keeps: the forecast reads the last minute's and the current one. */
export const REQUEST_BUCKETS_KEPT = 8;

/**
 * Adds a worker's count of a run's requests answered to its record (metrics/run-requests.ts): the
 * bucket's (all answered), the total of those done with (`sent`), and `sentSince` when `since` is
 * earlier; the bucket that fell out of the kept ones goes. A run that is gone (expired, deleted)
 * is left gone: replies 0, else 1.
 */
export const ADD_SENT_REQUESTS = defineScript({
  keys: ['run'],
  args: ['requests', 'done', 'bucket', 'since'],
  source: `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'sent', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'rq:' .. ARGV[3], ARGV[1])
redis.call('HDEL', KEYS[1], 'rq:' .. (tonumber(ARGV[3]) - ${REQUEST_BUCKETS_KEPT}))
local since = redis.call('HGET', KEYS[1], 'sentSince')
if not since or tonumber(ARGV[4]) < tonumber(since) then
  redis.call('HSET', KEYS[1], 'sentSince', ARGV[4])
end
return 1`,
  parse: reply.flag,
});
