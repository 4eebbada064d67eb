/**
 * A lease: a key set to the holder's token with a short expiry, renewed by a timer while the holder
 * lives, so that a holder killed outright (SIGKILL, a lost machine) frees it within one expiry.
 * Renewing and releasing check the token in one script, so a holder whose lease lapsed (its event
 * loop stalled past the expiry) neither extends nor frees its successor's.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from './connection.js';
import { runScript } from './lua.js';
import { KEEP_LEASE } from './scripts/keep-lease.js';
import { RELEASE_LEASE } from './scripts/release-lease.js';
import { RENEW_LEASE } from './scripts/renew-lease.js';

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

/**
 * Takes the lease on `key` for `ttlMs` (renewed every third of it); undefined when another holds
 * it. The key already holding `token` is this very SET, sent again by the client after Redis ran it
 * but the connection dropped before its answer came (a Redis restart): the lease is ours.
 */
export async function acquireLease(
  redis: RedisClient,
  key: string,
  ttlMs: number,
  token: string = randomUUID(),
): Promise<Lease | undefined> {
  const taken = (await redis.set(key, token, 'PX', ttlMs, 'NX')) === 'OK';
  if (!taken && (await redis.get(key)) !== token) return undefined;
  let lost = false;
  const renew = setInterval(() => {
    runScript(redis, RENEW_LEASE, { lease: key }, { token, ttlMs }).then(
      (renewed) => {
        if (!renewed) lost = true;
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
      return await runScript(redis, KEEP_LEASE, { lease: key }, { token });
    },
    async release() {
      clearInterval(renew);
      await runScript(redis, RELEASE_LEASE, { lease: key }, { token });
    },
  };
}
