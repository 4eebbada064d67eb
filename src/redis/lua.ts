import { createHash } from 'node:crypto';
import type { RedisClient } from './connection.js';

export interface LuaScript {
  readonly source: string;
  readonly sha: string;
  readonly keys: number;
}

export function luaScript(source: string, keys: number): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex'), keys };
}

/** EVALSHA, loading the script on NOSCRIPT (a restarted or new Redis). */
export async function runLua(
  redis: RedisClient,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  if (keys.length !== script.keys) throw new Error(`script takes ${script.keys} keys`);
  try {
    return await redis.evalsha(script.sha, script.keys, ...keys, ...args);
  } catch (error) {
    // A Redis error reply has no code but its first word (ioredis ReplyError).
    if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
    return await redis.eval(script.source, script.keys, ...keys, ...args);
  }
}
