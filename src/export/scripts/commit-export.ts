import { defineScript, reply } from '../../redis/index.js';

/**
 * If `runId` still holds the pipeline's lock: moves the cursor ('' leaves it), counts the file,
 * clears `pending` and finishes the run with `fields` (pairs), counting it in the metrics. True
 * then.
 */
export const COMMIT_EXPORT = defineScript({
  keys: ['lock', 'export', 'run', 'metrics'],
  args: ['runId', 'cursor', 'seq', 'now', 'retentionS', 'runsField', 'lastSuccessField'],
  rest: 'fields',
  source: `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[2], 'cursor', ARGV[2]) end
redis.call('HSET', KEYS[2], 'seq', ARGV[3])
redis.call('HDEL', KEYS[2], 'pending', 'runId')
redis.call('HSET', KEYS[3], unpack(ARGV, 8))
redis.call('EXPIRE', KEYS[3], ARGV[5])
redis.call('HINCRBY', KEYS[4], ARGV[6], 1)
redis.call('HSET', KEYS[4], ARGV[7], ARGV[4])
return 1`,
  parse: reply.flag,
});
