import type { RedisClient } from '../../redis/connection.js';
import { luaScript, runLua } from '../../redis/lua.js';

/**
 * Commits items of one resource atomically. KEYS: the state hash, its live counter.
 * ARGV: triples (key, version, encoded state). Per item: a newer version is written; the same
 * version with the same value is already committed (1, no change); an older version, or the same
 * version with another value, is stale (0). The live counter follows tombstones both ways.
 */
const SCRIPT = `
local out = {}
local delta = 0
local function live(value)
  local sep = string.find(value, '|', 1, true)
  return string.sub(value, sep + 1, sep + 1) ~= '|'
end
for i = 1, #ARGV, 3 do
  local key = ARGV[i]
  local version = tonumber(ARGV[i + 1])
  local value = ARGV[i + 2]
  local cur = redis.call('HGET', KEYS[1], key)
  local result = 1
  local write = true
  if cur then
    local curVersion = tonumber(string.sub(cur, 1, string.find(cur, '|', 1, true) - 1))
    if curVersion > version or (curVersion == version and cur ~= value) then
      result = 0
      write = false
    elseif curVersion == version then
      write = false
    end
  end
  if write then
    redis.call('HSET', KEYS[1], key, value)
    local was = cur and live(cur)
    local now = live(value)
    if now and not was then delta = delta + 1 elseif was and not now then delta = delta - 1 end
  end
  out[#out + 1] = result
end
if delta ~= 0 then redis.call('INCRBY', KEYS[2], delta) end
return out
`;

const COMMIT = luaScript(SCRIPT, 2);

/** Runs the script (EVALSHA, loading it on NOSCRIPT); returns 1 (committed) or 0 (stale) per item. */
export async function runCommitScript(
  redis: RedisClient,
  keys: [string, string],
  args: string[],
): Promise<number[]> {
  return (await runLua(redis, COMMIT, keys, args)) as number[];
}
