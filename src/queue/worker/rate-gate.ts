/**
 * The one gate every request of every worker process passes before it is sent:
 * - a pause: when the platform answers 429 (or 503 with Retry-After) the WHOLE delivery waits as
 *   told. The pause is a Redis key whose PTTL is the time left, so every process sees it whatever
 *   its clock; the process that got the 429 closes its own gate at once, the others within
 *   POLL_MS (and before every request when a rate is set, through the token script).
 * - a rate: delivery.ratePerSecond, a token bucket in Redis shared by every process (burst: one
 *   second's worth). 0 turns it off.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
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
 * KEYS: bucket, pause. ARGV: rate per second. Returns 0 when a token was taken, else the ms to
 * wait (the pause's time left, or until the next token). Time is Redis's own clock.
 */
const TAKE = luaScript(
  `local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return paused end
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or rate
local at = tonumber(state[2]) or now
tokens = math.min(rate, tokens + (now - at) * rate / 1000)
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], 60000)
return wait`,
  2,
);

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

export function createRateGate(redis: Redis, keys: DeliveryKeys, ratePerSecond: number): RateGate {
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
        await runLua(redis, TAKE, [keys.rateBucket, keys.pause], [ratePerSecond]),
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
