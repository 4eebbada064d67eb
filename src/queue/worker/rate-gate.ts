/**
 * The one gate every request of every worker process passes before it is sent:
 * - a pause: when the platform answers 429 (or 503 with Retry-After) the WHOLE delivery waits as
 *   told. The pause is a Redis key whose PTTL is the time left, so every process sees it whatever
 *   its clock; the process that got the 429 closes its own gate at once, the others within
 *   POLL_MS (and before every request when a rate is set, through the token script).
 * - a rate: delivery.ratePerSecond, shared by every process through Redis as a sliding window: no
 *   second (of any start) holds more grants than grantsPerSecond, so a platform that counts
 *   requests per calendar second, or in a sliding second, is not sent one too many (a token
 *   bucket lets its burst land beside the refill of the second before, and each 429 then pauses
 *   the whole delivery for its Retry-After). 0 turns it off.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../../redis/connection.js';
import type { DeliveryKeys } from '../keys.js';
import { luaScript, runLua } from '../../redis/lua.js';

const POLL_MS = 200;

/** KEYS: pause key. ARGV: ms. Extends the pause to at least ms from now (never shortens it). */
const PAUSE = luaScript(
  `local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`,
  1,
);

/**
 * KEYS: window (a sorted set of the grants of the last second), pause, sequence. ARGV: grants
 * allowed per second. Returns 0 when the request may go, else the ms to wait (the pause's time
 * left, or until the oldest grant leaves the window). Time is Redis's own clock.
 */
const TAKE = luaScript(
  `local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return paused end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 1000)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, redis.call('INCR', KEYS[3]))
  redis.call('PEXPIRE', KEYS[1], 2000)
  redis.call('PEXPIRE', KEYS[3], 2000)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, math.ceil(tonumber(oldest[2]) + 1000 - now))`,
  3,
);

/**
 * Grants per second for a platform limit of `rate`: a few percent under it (at least one request
 * under, from 2/s), because a request granted at the end of one second may arrive in the next
 * one, and each 429 stops every worker for its whole Retry-After.
 */
export function grantsPerSecond(rate: number): number {
  return Math.max(1, Math.min(rate - 1, Math.floor(rate * 0.97)));
}

export interface RateGate {
  /**
   * Undefined when a request may be sent now, else a promise that resolves when it may (rejects
   * when the signal aborts). The open gate costs no promise: it is asked before every request.
   */
  pass(signal?: AbortSignal): Promise<void> | undefined;
  /** The platform asked to wait: pauses every worker for `ms`. */
  pause(ms: number): Promise<void>;
  close(): void;
}

export function createRateGate(
  redis: RedisClient,
  keys: DeliveryKeys,
  ratePerSecond: number,
): RateGate {
  const grants = grantsPerSecond(ratePerSecond);
  let pausedUntil = 0;
  const poller = setInterval(() => {
    redis.pttl(keys.pause).then(
      (left) => {
        if (left > 0) pausedUntil = Math.max(pausedUntil, Date.now() + left);
      },
      () => undefined, // Redis unavailable: the commands of the job report it
    );
  }, POLL_MS);
  poller.unref();

  async function waitToPass(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const local = pausedUntil - Date.now();
      if (local > 0) {
        await sleep(local, undefined, { signal });
        continue;
      }
      if (ratePerSecond <= 0) return;
      const wait = Number(
        await runLua(redis, TAKE, [keys.rateBucket, keys.pause, keys.rateSequence], [grants]),
      );
      if (wait <= 0) return;
      await sleep(wait, undefined, { signal });
    }
  }

  return {
    pass(signal) {
      if (ratePerSecond <= 0 && pausedUntil <= Date.now()) return undefined;
      return waitToPass(signal);
    },
    async pause(ms) {
      pausedUntil = Math.max(pausedUntil, Date.now() + ms);
      await runLua(redis, PAUSE, [keys.pause], [Math.max(1, Math.ceil(ms))]);
    },
    close() {
      clearInterval(poller);
    },
  };
}
