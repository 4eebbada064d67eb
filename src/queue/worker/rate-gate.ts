/**
 * The one gate every request of every worker process passes before it is sent:
 * - a pause: when the platform answers 429 (or 503 with Retry-After), or its headers say nothing
 *   is left of its window, the WHOLE delivery waits as told. The pause is a Redis key whose PTTL
 *   is the time left, so every process sees it whatever its clock; the process that got the 429
 *   closes its own gate at once, the others within POLL_MS (and at their next take of grants, at
 *   most LEASE_MS later).
 * - a rate, shared by every process through Redis as a sliding window: no window (of any start)
 *   holds more grants than allowed, so a platform that counts per calendar second, or in a sliding
 *   second, is not sent one too many. `delivery.ratePerSecond` a number: that rate (0: none).
 *   `auto`: the platform's own rate-limit headers where it sends them, else a rate discovered on
 *   its 429s (scripts/rate-window.ts).
 * - lanes: while interactive requests ask, bulk requests fill at most `delivery.bulkShare` of the
 *   window, so an interactive request finds room within a window whatever the bulk backlog.
 * Grants are taken a few at a time while the window is far from full (scripts/rate-take.ts): a
 * process uses them for its next requests within LEASE_MS, or drops them, so a fast delivery makes
 * one round trip to Redis per BLOCK requests, not one per request. Near the limit it takes one at
 * a time, as the window must be exact there.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { hasRateLimitHeaders, readRateLimitHeaders } from '../../interface/index.js';
import { type RedisClient, runScript } from '../../redis/index.js';
import type { DeliveryKeys, Lane } from '../../runs/index.js';
import { RATE_OBSERVED } from '../scripts/rate-observed.js';
import { RATE_PAUSE } from '../scripts/rate-pause.js';
import { RATE_REFUSED } from '../scripts/rate-refused.js';
import { RATE_TAKE } from '../scripts/rate-take.js';

const POLL_MS = 200;
/** The discovered rate's first guess, doubled while the platform accepts it (slow start). */
export const START_PER_SECOND = 20;
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

/**
 * Grants per second for a fixed platform limit of `rate`: a few percent under it (at least one
 * request under, from 2/s), because a request granted at the end of one second may arrive in the
 * next one, and each 429 stops every worker for its whole Retry-After.
 */
export function grantsPerSecond(rate: number): number {
  return Math.max(1, Math.min(rate - 1, Math.floor(rate * 0.97)));
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
   */
  pass(lane: Lane, signal?: AbortSignal): Promise<void> | undefined;
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
  const fixed = auto ? 0 : grantsPerSecond(options.ratePerSecond as number);
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

  async function waitToPass(lane: Lane, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const local = pausedUntil - Date.now();
      if (local > 0) {
        await sleep(local, undefined, { signal });
        continue;
      }
      if (unlimited) return;
      const { waitMs, granted } = await runScript(
        redis,
        RATE_TAKE,
        {
          window: keys.rateBucket,
          pause: keys.pause,
          sequence: keys.rateSequence,
          limit: keys.rateLimit,
          interactive: keys.rateInteractive,
        },
        {
          fixedPerSecond: fixed,
          lane,
          bulkShare: options.bulkShare,
          startPerSecond: START_PER_SECOND,
          block: BLOCK,
        },
      );
      if (waitMs <= 0) {
        if (granted > 1) takeAhead(lane, granted - 1);
        return;
      }
      await sleep(waitMs, undefined, { signal });
    }
  }

  async function pause(ms: number): Promise<void> {
    holdUntil(Date.now() + ms);
    await runScript(redis, RATE_PAUSE, { pause: keys.pause }, { ms: Math.max(1, Math.ceil(ms)) });
  }

  return {
    pass(lane, signal) {
      const now = Date.now();
      if (pausedUntil <= now) {
        if (unlimited) return undefined;
        const taken = ahead[lane];
        if (taken.left > 0 && now < taken.until) {
          taken.left -= 1;
          return undefined;
        }
      }
      return waitToPass(lane, signal);
    },
    pause,
    async refused() {
      if (auto) {
        await runScript(
          redis,
          RATE_REFUSED,
          { limit: keys.rateLimit },
          { startPerSecond: START_PER_SECOND },
        );
      }
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
      // Nothing left of the platform's window: everyone waits for its reset.
      if (limit.remaining === 0) await pause(Math.max(1, limit.resetSeconds * 1000));
    }
    const windowS = Math.max(1, limit.windowSeconds ?? longestResetS);
    const scale = Math.min(1, MAX_WINDOW_S / windowS);
    const quota = Math.max(1, Math.floor(limit.quota * scale));
    const windowMs = Math.round(Math.min(windowS, MAX_WINDOW_S) * 1000);
    const now = Date.now();
    if (quota === stated.quota && windowMs === stated.windowMs && now - stated.at < RESTATE_MS) {
      return;
    }
    stated = { quota, windowMs, at: now };
    await runScript(redis, RATE_OBSERVED, { limit: keys.rateLimit }, { quota, windowMs });
  }
}
