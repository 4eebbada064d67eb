import { defineScript, reply } from '../../redis/index.js';
import { commitLua } from './commit-state.js';
import { recordLua } from './record-before-images.js';

/** Per item: stale (not committed), committed and recorded, committed with its record waiting. */
export type DeliveredCommit = 'stale' | 'recorded' | 'merge';

const outcome = reply.code<DeliveredCommit>(['stale', 'recorded', 'merge']);

/** The payload argument of a patch to merge with the payload kept (a kept value starts with a digit). */
export const MERGE_PAYLOAD = '+';

/**
 * Commits a chunk of one resource's confirmed items to state (commitLua) and records each
 * committed one in the payload history (recordLua), atomically: delivery's one round trip per
 * chunk. `items` triples: the key; the before-image head (`<kind letter>|<baseVersion>|`) and the
 * encoded state (whose version leads it) in one; the new payload value, '' when unknown, or
 * MERGE_PAYLOAD for a patch. Three arguments an item where there were six: passing an argument
 * costs ioredis and Redis about as much as a hash write (docs/BENCHMARKS.md, Delivery, the
 * commit path). The before-image field is `resource`, a line break and the key. A committed patch
 * whose entity has a payload kept is not recorded ('merge'): the caller records it with the merged
 * payload (RECORD_BEFORE_IMAGES). The run's before-image hash expires `ttlSeconds` after its last commit.
 */
export const COMMIT_DELIVERED = defineScript({
  keys: ['state', 'liveCount', 'origin', 'payloads', 'beforeImages'],
  args: ['runId', 'ttlSeconds', 'resource'],
  rest: 'items',
  source: `${commitLua('ARGV[1]')}${recordLua('KEYS[4]', 'KEYS[5]')}
local out = {}
local resource = ARGV[3]
for i = 4, #ARGV, 3 do
  local key = ARGV[i]
  local packed = ARGV[i + 1]
  local cut = string.find(packed, '|', 3, true)
  local state = string.sub(packed, cut + 1)
  local result = commitItem(key, state)
  if result == 1 then
    local payload, merge = ARGV[i + 2], '0'
    if payload == '${MERGE_PAYLOAD}' then payload, merge = '', '1' end
    local version = tonumber(versionText(state))
    local field = resource .. '\\n' .. key
    result = recordItem(key, version, payload, field, string.sub(packed, 1, cut), merge)
  end
  out[#out + 1] = result
end
commitEnd()
redis.call('EXPIRE', KEYS[5], ARGV[2])
return out
`,
  parse: (value) => reply.list(value).map(outcome),
});
