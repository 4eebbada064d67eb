import { defineScript, reply } from '../../redis/index.js';

/**
 * Recording one confirmed item in the payload history (before-images/payload-history.ts), shared
 * by RECORD_BEFORE_IMAGES and COMMIT_DELIVERED (commit-delivered.ts): `payloads` and `images` the
 * KEYS of the payload hash and the run's before-image hash. recordItem(key, version, the new payload
 * value or '' when unknown, the before-image field, its head, merge): an item whose version the
 * payload hash holds already (a retried job) changes nothing; otherwise the payload hash gets the
 * new value and the run's before-image hash, on the first commit of the change only (HSETNX), the
 * head and what was there before. With `merge` '1' (a patch, whose whole payload is the one kept
 * with its fields) and a payload kept, nothing is written and 2 is returned: the caller merges
 * and records it again without `merge`. Else 1.
 */
export function recordLua(payloads: string, images: string): string {
  return `
local function recordItem(key, version, value, field, head, merge)
  local cur = redis.call('HGET', ${payloads}, key)
  local curVersion = 0
  if cur then curVersion = tonumber(string.sub(cur, 1, string.find(cur, '|', 1, true) - 1)) end
  if curVersion >= version then return 1 end
  if merge == '1' and cur then return 2 end
  if value ~= '' then redis.call('HSET', ${payloads}, key, value) end
  redis.call('HSETNX', ${images}, field, head .. (cur or ''))
  return 1
end
`;
}

/**
 * Records a chunk of one resource's confirmed items (recordLua): `items` quadruples (key, version,
 * the new payload value or '' when unknown, the before-image head); the before-image field is
 * `resource`, a line break and the key. The run's hash expires `ttlSeconds` after its last commit.
 */
export const RECORD_BEFORE_IMAGES = defineScript({
  keys: ['payloads', 'beforeImages'],
  args: ['ttlSeconds', 'resource'],
  rest: 'items',
  source: `${recordLua('KEYS[1]', 'KEYS[2]')}
for i = 3, #ARGV, 4 do
  local key = ARGV[i]
  recordItem(key, tonumber(ARGV[i + 1]), ARGV[i + 2], ARGV[2] .. '\\n' .. key, ARGV[i + 3], '0')
end
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1
`,
  parse: reply.none,
});
