import { defineScript, reply } from '../../redis/index.js';

/** Grants a blocked pipeline one probe every `probeMs`; 1 when a probe was granted. */
export const BREAKER_GRANT_PROBE = defineScript({
  keys: ['breaker'],
  args: ['now', 'probeMs'],
  source: `if redis.call('HGET', KEYS[1], 'blocked') ~= '1' then return 0 end
local last = tonumber(redis.call('HGET', KEYS[1], 'lastProbe') or '0')
if tonumber(ARGV[1]) - last < tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'probe', '1', 'lastProbe', ARGV[1])
return 1`,
  parse: reply.flag,
});
