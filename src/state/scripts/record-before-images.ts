import { defineScript, reply } from '../../redis/index.js';

/**
 * Records a chunk of one resource's confirmed items in the payload history
 * (before-images/payload-history.ts): `items` quintuples (key, version, the new payload value or
 * '' when unknown, the before-image field, its head). An item whose version the payload hash holds
 * already (a retried job) changes nothing; otherwise the payload hash gets the new value and the
 * run's before-image hash, on the first commit of the change only (HSETNX), the head and what was
 * there before. The run's hash expires `ttlSeconds` after its last commit.
 */
export const RECORD_BEFORE_IMAGES = defineScript({
  keys: ['payloads', 'beforeImages'],
  args: ['ttlSeconds'],
  rest: 'items',
  source: `
for i = 2, #ARGV, 5 do
  local key = ARGV[i]
  local version = tonumber(ARGV[i + 1])
  local cur = redis.call('HGET', KEYS[1], key)
  local curVersion = 0
  if cur then curVersion = tonumber(string.sub(cur, 1, string.find(cur, '|', 1, true) - 1)) end
  if curVersion < version then
    if ARGV[i + 2] ~= '' then redis.call('HSET', KEYS[1], key, ARGV[i + 2]) end
    redis.call('HSETNX', KEYS[2], ARGV[i + 3], ARGV[i + 4] .. (cur or ''))
  end
end
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
`,
  parse: reply.none,
});
