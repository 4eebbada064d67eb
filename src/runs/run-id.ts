import { randomBytes } from 'node:crypto';
import { type RedisClient, luaScript, runLua } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';

/** `<pipeline>-<UTC yyyymmddThhmmss>-<4 hex>`: sortable, readable, unique. */
export function newRunId(pipeline: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `${pipeline}-${stamp}-${randomBytes(2).toString('hex')}`;
}

/**
 * The version a run's items carry: Redis's clock in ms, or one more than the pipeline's last
 * version when that is ahead, so versions only grow whichever host starts the run.
 */
const NEXT_VERSION = luaScript(
  `local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local v = math.max(now, last + 1)
redis.call('HSET', KEYS[1], ARGV[1], v)
return v`,
  1,
);

export async function nextVersion(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<number> {
  return Number(await runLua(redis, NEXT_VERSION, [keys.versions], [pipeline]));
}
