import { defineScript, reply } from '../../redis/index.js';
import { commitLua } from './commit-state.js';
import { recordLua } from './record-before-images.js';

/** Per item: stale (not committed), committed and recorded, committed with its record waiting. */
export type DeliveredCommit = 'stale' | 'recorded' | 'merge';

const outcome = reply.code<DeliveredCommit>(['stale', 'recorded', 'merge']);

/**
 * Commits a chunk of one resource's confirmed items to state (commitLua) and records each
 * committed one in the payload history (recordLua), atomically: delivery's one round trip per
 * chunk where it made two or three. `items` sextuples (key, version, encoded state, the new
 * payload value or '' when unknown, the before-image head, merge: '1' for a patch). The
 * before-image field is `resource`, a line break and the key. A committed patch whose entity has
 * a payload kept is not recorded ('merge'): the caller records it with the merged payload
 * (RECORD_BEFORE_IMAGES). The run's before-image hash expires `ttlSeconds` after its last commit.
 */
export const COMMIT_DELIVERED = defineScript({
  keys: ['state', 'liveCount', 'origin', 'payloads', 'beforeImages'],
  args: ['runId', 'ttlSeconds', 'resource'],
  rest: 'items',
  source: `${commitLua('ARGV[1]')}${recordLua('KEYS[4]', 'KEYS[5]')}
local out = {}
local resource = ARGV[3]
for i = 4, #ARGV, 6 do
  local key = ARGV[i]
  local result = commitItem(key, ARGV[i + 1], ARGV[i + 2])
  if result == 1 then
    local field = resource .. '\\n' .. key
    result = recordItem(key, tonumber(ARGV[i + 1]), ARGV[i + 3], field, ARGV[i + 4], ARGV[i + 5])
  end
  out[#out + 1] = result
end
commitEnd()
redis.call('EXPIRE', KEYS[5], ARGV[2])
return out
`,
  parse: (value) => reply.list(value).map(outcome),
});
