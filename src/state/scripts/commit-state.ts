import { defineScript, reply } from '../../redis/index.js';

/**
 * The commit of one resource's items, shared by COMMIT_STATE and COMMIT_DELIVERED
 * (commit-delivered.ts): KEYS[1] the state hash, KEYS[2] its live counter, KEYS[3] its origin
 * hash (state-format.ts); `run` the committing run ('' records no origin). commitItem(key, encoded
 * state, whose version leads it): a newer version is written; the same version with the same
 * value is already committed (1, no change); an older version, or the same version with another
 * value, is stale (0). The live counter follows tombstones both ways; commitEnd() writes it and the
 * origins. versionText(value) is the version an encoded state (or kept payload) starts with.
 *
 * A call per item rather than one HMGET and one HSET per chunk: measured on Redis 7, the batched
 * calls cost more (a call's arguments beyond the first 32 are allocated anew, where a call of a
 * few reuses cached ones), so the commit's cost is its items' writes, not its calls.
 *
 * Origins cost a field per run, not per item: each version (a run's) is owned by the first run
 * that commits items of it, with the times of its first and last commits; only an item written by
 * another run than its version's owner (a replayed dead letter) gets a field of its own.
 */
export function commitLua(run: string): string {
  return `
local delta = 0
local run = ${run}
local owners = {}
local now
local function versionText(value)
  return string.sub(value, 1, string.find(value, '|', 1, true) - 1)
end
local function live(value)
  return string.byte(value, string.find(value, '|', 1, true) + 1) ~= 124
end
local function clock()
  if not now then
    local t = redis.call('TIME')
    now = string.format('%.0f', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
  end
  return now
end
local function ownerOf(version)
  local owner = owners[version]
  if owner then return owner end
  local cur = redis.call('HGET', KEYS[3], 'v:' .. version)
  if cur then
    local sep = string.find(cur, '|', 1, true)
    local sep2 = string.find(cur, '|', sep + 1, true)
    owner = { run = string.sub(cur, 1, sep - 1), first = string.sub(cur, sep + 1, sep2 - 1) }
  else
    owner = { run = run, first = clock() }
  end
  owners[version] = owner
  return owner
end
local function commitItem(key, value)
  local text = versionText(value)
  local version = tonumber(text)
  local cur = redis.call('HGET', KEYS[1], key)
  if cur then
    local curVersion = tonumber(versionText(cur))
    if curVersion > version or (curVersion == version and cur ~= value) then return 0 end
    if curVersion == version then return 1 end
  end
  redis.call('HSET', KEYS[1], key, value)
  local was = cur and live(cur)
  local is = live(value)
  if is and not was then delta = delta + 1 elseif was and not is then delta = delta - 1 end
  if run ~= '' then
    local owner = ownerOf(text)
    if owner.run ~= run then
      redis.call('HSET', KEYS[3], 'k:' .. key, text .. '|' .. run .. '|' .. clock())
    end
  end
  return 1
end
local function commitEnd()
  if delta ~= 0 then redis.call('INCRBY', KEYS[2], delta) end
  for version, owner in pairs(owners) do
    if owner.run == run then
      redis.call('HSET', KEYS[3], 'v:' .. version, run .. '|' .. owner.first .. '|' .. clock())
    end
  end
end
`;
}

/**
 * Commits items of one resource atomically (commitLua); `items` pairs (key, encoded state).
 * Parsed: per item, whether it is committed.
 */
export const COMMIT_STATE = defineScript({
  keys: ['state', 'liveCount', 'origin'],
  args: ['runId'],
  rest: 'items',
  source: `${commitLua('ARGV[1]')}
local out = {}
for i = 2, #ARGV, 2 do
  out[#out + 1] = commitItem(ARGV[i], ARGV[i + 1])
end
commitEnd()
return out
`,
  parse: (value) => reply.list(value).map((result) => result === 1),
});
