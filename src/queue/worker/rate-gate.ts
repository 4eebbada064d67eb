/**
 * The one gate every request of every worker process passes before it is sent:
 * - a pause: when the platform answers 429 (or 503 with Retry-After) the WHOLE delivery waits as
 *   told. The pause is a Redis key whose PTTL is the time left, so every process sees it whatever
 *   its clock; the process that got the 429 closes its own gate at once, the others within
 *   POLL_MS (and before every request when a rate is set, through the token script).
 * - a rate: delivery.ratePerSecond, a token bucket in Redis shared by every process, paced a little
 *   under the rate with a burst of a tenth of a second's worth. 0 turns it off.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../../redis/connection.js';
import type { DeliveryKeys } from '../keys.js';
import { luaScript, runLua } from '../../redis/lua.js';

const POLL_MS = 200;
/**
 * The bucket holds a tenth of a second's tokens: a platform that counts requests per calendar
 * second refuses a burst of a whole second's worth that lands beside the refill of the second
 * before (and each 429 then pauses the whole delivery for its Retry-After).
 */
const BURST_SHARE = 10;
/**
 * Requests are paced at 97% of ratePerSecond: paced at exactly the limit, a second's window of
 * the platform gets one request too many whenever the sending jitters, and each such 429 stops
 * every worker for a whole Retry-After (measured, bench/scale-out.ts: at 100% of R, 1.4% of the
 * answers were 429 and 69% of R was achieved; at 97%, none and 89%).
 */
const HEADROOM = 0.97;

/** KEYS: pause key. ARGV: ms. Extends the pause to at least ms from now (never shortens it). */
const PAUSE = luaScript(
  `local left = redis.call('PTTL', KEYS[1])
if left < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) end
return 1`,
  1,
);

/**
 * KEYS: bucket, pause. ARGV: rate per second, burst. Returns 0 when a token was taken, else the ms to
 * wait (the pause's time left, or until the next token). Time is Redis's own clock.
 */
const TAKE = luaScript(
  `local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return paused end
local rate = tonumber(ARGV[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local burst = tonumber(ARGV[2])
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + (now - at) * rate / 1000)
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

export function createRateGate(
  redis: RedisClient,
  keys: DeliveryKeys,
  ratePerSecond: number,
): RateGate {
  const pace = ratePerSecond * HEADROOM;
  const burst = Math.max(1, Math.floor(ratePerSecond / BURST_SHARE));
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
      const wait = Number(await runLua(redis, TAKE, [keys.rateBucket, keys.pause], [pace, burst]));
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
