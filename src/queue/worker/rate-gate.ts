/**
 * The one gate every request of every worker process passes before it is sent:
 * - a pause: when the platform answers 429 (or 503 with Retry-After), or its headers say nothing
 *   is left of its window, the WHOLE delivery waits as told. The pause is a Redis key whose PTTL
 *   is the time left, so every process sees it whatever its clock; the process that got the 429
 *   closes its own gate at once, the others within POLL_MS (and at their next take of grants, at
 *   most LEASE_MS later).
 * - a rate, shared by every process through Redis as a sliding window: no window (of any start)
 *   holds more grants than allowed, so a platform that counts per calendar second, or in a sliding
 *   second, is not sent one too many (the window is stretched by a margin for the grants' jitter
 *   on their way). `delivery.ratePerSecond` a number: that rate (0: none). `auto`: the platform's
 *   own rate-limit headers where it sends them, else a rate discovered on its 429s
 *   (scripts/rate-window.ts).
 * - lanes: while interactive requests ask, bulk requests fill at most `delivery.bulkShare` of the
 *   window, so an interactive request finds room within a window whatever the bulk backlog.
 * Grants are taken a few at a time while the window is far from full (scripts/rate-take.ts): a
 * process uses them for its next requests within LEASE_MS, or drops them, so a fast delivery makes
 * one round trip to Redis per BLOCK requests, not one per request. Near the limit it takes one at
 * a time, as the window must be exact there.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  hasRateLimitHeaders,
  type RateLimitHeaders,
  readRateLimitHeaders,
} from '../../interface/index.js';
import { type RedisClient, runScript } from '../../redis/index.js';
import { type DeliveryKeys, type Lane, RateWaitError } from '../../runs/index.js';
import { RATE_OBSERVED } from '../scripts/rate-observed.js';
import { RATE_PAUSE } from '../scripts/rate-pause.js';
import { RATE_REFUSED } from '../scripts/rate-refused.js';
import { RATE_TAKE } from '../scripts/rate-take.js';

const POLL_MS = 200;
/**
 * The discovered rate's first guess, doubled while the platform accepts it (slow start): the
 * lowest limit platforms set (Shopify's REST plans start at 2/s), so a small one meets few 429s.
 */
export const START_PER_SECOND = 2;
/** How often a process re-states headers it already wrote (they go stale after a minute). */
const RESTATE_MS = 10_000;
/** Longest window the gate keeps: a platform quota per hour is kept as its share of a minute. */
const MAX_WINDOW_S = 60;
/** Most grants taken in one round trip (the take script gives fewer near the window's limit). */
const BLOCK = 16;
/**
 * Grants taken ahead are used within this long or dropped: they were counted at the take, so a
 * request sent later than that could land in the platform's next window.
 */
const LEASE_MS = 20;

/** What an answer's rate-limit headers make of the window, and whether everyone must wait. */
export interface StatedLimit {
  /** Grants per window... */
  quota: number;
  /** ...of this many ms (before the gate's margin). */
  windowMs: number;
  /** Set when the platform's window is spent: every worker waits this long. */
  pauseMs?: number;
}

/**
 * The window the platform's headers state. `longestResetS`: the longest reset seen so far, which
 * stands for the window of headers that name none (X-RateLimit-*). A `remaining` of 0 pauses until
 * the reset only when the reset says more than the window does: a reset of a whole window (IETF's
 * `t=1` of a one-second window, a delta rounded up) is what the gate's own window already keeps to,
 * and pausing for it would leave most of a second unused.
 */
export function statedLimit(limit: RateLimitHeaders, longestResetS: number): StatedLimit {
  const windowS = Math.max(1, limit.windowSeconds ?? longestResetS);
  const scale = Math.min(1, MAX_WINDOW_S / windowS);
  const stated: StatedLimit = {
    quota: Math.max(1, Math.floor(limit.quota * scale)),
    windowMs: Math.round(Math.min(windowS, MAX_WINDOW_S) * 1000),
  };
  const reset = limit.resetSeconds;
  if (limit.remaining === 0 && reset !== undefined && reset < windowS) {
    stated.pauseMs = Math.max(1, Math.ceil(reset * 1000));
  }
  return stated;
}

/** The keys of the take script (scripts/rate-take.ts) for a delivery's keys. */
export function rateTakeKeys(keys: DeliveryKeys) {
  return {
    window: keys.rateBucket,
    pause: keys.pause,
    sequence: keys.rateSequence,
    limit: keys.rateLimit,
    interactive: keys.rateInteractive,
  };
}

export interface RateGateOptions {
  /** delivery.ratePerSecond: a fixed rate (0: unlimited) or `auto`. */
  ratePerSecond: number | 'auto';
  /** delivery.bulkShare: the most of the window bulk takes while interactive requests wait. */
  bulkShare: number;
}

export interface RateGate {
  /**
   * Undefined when a request may be sent now, else a promise that resolves when it may (rejects
   * when the signal aborts). The open gate costs no promise: it is asked before every request.
   * With `yieldAfterMs`, a wait longer than that in all rejects with RateWaitError instead, no
   * grant taken: the caller gives its slot to other work for that long.
   */
  pass(lane: Lane, signal?: AbortSignal, yieldAfterMs?: number): Promise<void> | undefined;
  /** The platform asked to wait: pauses every worker for `ms`. */
  pause(ms: number): Promise<void>;
  /** A 429 came: under `auto`, the discovered rate comes down. */
  refused(): Promise<void>;
  /**
   * An answer's headers: under `auto`, the platform's stated limit sizes the window. Undefined
   * (no promise) when they say nothing of a limit: it is asked of every answer.
   */
  observe(headers: Record<string, string> | undefined): Promise<void> | undefined;
  close(): void;
}

export function createRateGate(
  redis: RedisClient,
  keys: DeliveryKeys,
  options: RateGateOptions,
): RateGate {
  const auto = options.ratePerSecond === 'auto';
  const fixed = auto ? 0 : (options.ratePerSecond as number);
  const unlimited = options.ratePerSecond === 0;
  let pausedUntil = 0;
  // The headers this process last wrote, and the longest reset it saw (X-RateLimit-* name no window).
  let stated = { quota: 0, windowMs: 0, at: 0 };
  let longestResetS = 1;
  // Grants taken ahead, per lane: how many are left, and until when they may be used.
  const ahead: Record<Lane, { left: number; until: number }> = {
    bulk: { left: 0, until: 0 },
    interactive: { left: 0, until: 0 },
  };
  const holdUntil = (until: number): void => {
    pausedUntil = Math.max(pausedUntil, until);
    ahead.bulk.left = 0;
    ahead.interactive.left = 0;
  };
  // Grants of several takes add up; the lease of the earliest still holds for them all.
  const takeAhead = (lane: Lane, grants: number): void => {
    const taken = ahead[lane];
    const now = Date.now();
    if (taken.left > 0 && now < taken.until) taken.left += grants;
    else ahead[lane] = { left: grants, until: now + LEASE_MS };
  };
  const poller = setInterval(() => {
    redis.pttl(keys.pause).then(
      (left) => {
        if (left > 0) holdUntil(Date.now() + left);
      },
      () => undefined, // Redis unavailable: the commands of the job report it
    );
  }, POLL_MS);
  poller.unref();

  async function waitToPass(
    lane: Lane,
    signal?: AbortSignal,
    yieldAfterMs?: number,
  ): Promise<void> {
    let waited = 0;
    const wait = async (ms: number): Promise<void> => {
      if (yieldAfterMs !== undefined && waited + ms > yieldAfterMs) throw new RateWaitError(ms);
      waited += ms;
      await sleep(ms, undefined, { signal });
    };
    for (;;) {
      const local = pausedUntil - Date.now();
      if (local > 0) {
        await wait(local);
        continue;
      }
      if (unlimited) return;
      const { waitMs, granted } = await runScript(redis, RATE_TAKE, rateTakeKeys(keys), {
        fixedPerSecond: fixed,
        lane,
        bulkShare: options.bulkShare,
        startPerSecond: START_PER_SECOND,
        block: BLOCK,
        now: '',
      });
      if (waitMs <= 0) {
        if (granted > 1) takeAhead(lane, granted - 1);
        return;
      }
      await wait(waitMs);
    }
  }

  async function pause(ms: number): Promise<void> {
    holdUntil(Date.now() + ms);
    await runScript(redis, RATE_PAUSE, { pause: keys.pause }, { ms: Math.max(1, Math.ceil(ms)) });
  }

  return {
    pass(lane, signal, yieldAfterMs) {
      const now = Date.now();
      if (pausedUntil <= now) {
        if (unlimited) return undefined;
        const taken = ahead[lane];
        if (taken.left > 0 && now < taken.until) {
          taken.left -= 1;
          return undefined;
        }
      }
      return waitToPass(lane, signal, yieldAfterMs);
    },
    pause,
    async refused() {
      if (unlimited) return;
      await runScript(
        redis,
        RATE_REFUSED,
        { limit: keys.rateLimit, window: keys.rateBucket },
        { startPerSecond: START_PER_SECOND, fixedPerSecond: fixed, now: '' },
      );
    },
    observe(headers) {
      if (!auto || !hasRateLimitHeaders(headers)) return undefined;
      return follow(headers);
    },
    close() {
      clearInterval(poller);
    },
  };

  async function follow(headers: Record<string, string> | undefined): Promise<void> {
    const limit = readRateLimitHeaders(headers);
    if (!limit) return;
    if (limit.resetSeconds !== undefined) {
      longestResetS = Math.max(longestResetS, Math.ceil(limit.resetSeconds));
    }
    const { quota, windowMs, pauseMs } = statedLimit(limit, longestResetS);
    if (pauseMs !== undefined) await pause(pauseMs);
    const now = Date.now();
    if (quota === stated.quota && windowMs === stated.windowMs && now - stated.at < RESTATE_MS) {
      return;
    }
    stated = { quota, windowMs, at: now };
    await runScript(redis, RATE_OBSERVED, { limit: keys.rateLimit }, { quota, windowMs, now: '' });
  }
}
