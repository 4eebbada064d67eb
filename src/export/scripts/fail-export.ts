import { defineScript, reply } from '../../redis/index.js';

/** Finishes a run still recorded as running as failed with `fields` (pairs); true then. */
export const FAIL_EXPORT = defineScript({
  keys: ['export', 'run', 'metrics'],
  args: ['runId', 'retentionS', 'runsField'],
  rest: 'fields',
  source: `if redis.call('HGET', KEYS[1], 'runId') == ARGV[1] then redis.call('HDEL', KEYS[1], 'runId') end
if redis.call('HGET', KEYS[2], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
return 1`,
  parse: reply.flag,
});
