/**
 * A lease: a key set to the holder's token with a short expiry, renewed by a timer while the holder
 * lives, so that a holder killed outright (SIGKILL, a lost machine) frees it within one expiry.
 * Renewing and releasing check the token in one script, so a holder whose lease lapsed (its event
 * loop stalled past the expiry) neither extends nor frees its successor's.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from './connection.js';
import { luaScript, runLua } from './lua.js';

const RENEW = luaScript(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`,
  1,
);
const KEEP = luaScript(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PERSIST', KEYS[1]) return 1 end
return 0`,
  1,
);
const RELEASE = luaScript(
  `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
  1,
);

export interface Lease {
  /** True once a renewal found the key gone or held by another token. */
  readonly lost: boolean;
  /** Stops renewing, leaving the key as it is. */
  stopRenewing(): void;
  /**
   * Stops renewing and makes the key permanent if this lease still holds it; false when it was
   * lost (it lapsed and another holder may have it), leaving the key untouched.
   */
  keep(): Promise<boolean>;
  /** Stops renewing and deletes the key if this lease still holds it. */
  release(): Promise<void>;
}

/** Takes the lease on `key` for `ttlMs` (renewed every third of it); undefined when it is held. */
export async function acquireLease(
  redis: RedisClient,
  key: string,
  ttlMs: number,
  token: string = randomUUID(),
): Promise<Lease | undefined> {
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return undefined;
  let lost = false;
  const renew = setInterval(() => {
    runLua(redis, RENEW, [key], [token, ttlMs]).then(
      (renewed) => {
        if (renewed === 0) lost = true;
      },
      // A failed renewal is retried at the next tick; the expiry covers two more of them.
      () => undefined,
    );
  }, ttlMs / 3);
  renew.unref();
  return {
    get lost() {
      return lost;
    },
    stopRenewing() {
      clearInterval(renew);
    },
    async keep() {
      clearInterval(renew);
      return (await runLua(redis, KEEP, [key], [token])) === 1;
    },
    async release() {
      clearInterval(renew);
      await runLua(redis, RELEASE, [key], [token]);
    },
  };
}
