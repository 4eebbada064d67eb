import { defineScript, reply } from '../../redis/index.js';

/**
 * Counts one refusal for each of a resource's items (refusals.ts): `items` pairs (key, base
 * version). A count kept for another base version starts again at 1: the entity moved since, so
 * its changes are planned with other keys anyway.
 */
export const RECORD_REFUSALS = defineScript({
  keys: ['refused'],
  args: [],
  rest: 'items',
  source: `
for i = 1, #ARGV, 2 do
  local key = ARGV[i]
  local base = ARGV[i + 1]
  local cur = redis.call('HGET', KEYS[1], key)
  local n = 1
  if cur then
    local curBase, count = string.match(cur, '^([^|]*)|(%d+)$')
    if curBase == base then n = tonumber(count) + 1 end
  end
  redis.call('HSET', KEYS[1], key, base .. '|' .. n)
end
return 1
`,
  parse: reply.none,
});
