/**
 * A fixed one-second window: more than `limit` requests (or, costed by items, more than `limit`
 * items) in the current second are refused, as a platform that counts per calendar second does.
 * Seconds of the simulator's clock (`SimulatorOptions.clock`): a test that stops it sees every
 * request in one window, however slowly the machine answers.
 */
export interface RateDecision {
  /** The epoch ms at which the next window opens when refused, else undefined. */
  refusedUntil: number | undefined;
  /** What is left of the window after this request. */
  remaining: number;
  /** Epoch ms at which the window resets. */
  resetAt: number;
}

export class RateLimiter {
  private windowSecond = 0;
  private used = 0;

  /**
   * Counts a request of `cost` against `limit` (0: no limit, undefined back). Counted by requests,
   * a refused request still counts (the platform saw it); costed, it spends nothing.
   */
  take(limit: number, cost: number | undefined, now: number): RateDecision | undefined {
    if (limit <= 0) return undefined;
    const second = Math.floor(now / 1000);
    if (second !== this.windowSecond) {
      this.windowSecond = second;
      this.used = 0;
    }
    const resetAt = (second + 1) * 1000;
    if (cost === undefined) {
      this.used += 1;
      const refused = this.used > limit;
      return {
        refusedUntil: refused ? resetAt : undefined,
        remaining: Math.max(0, limit - this.used),
        resetAt,
      };
    }
    if (this.used + cost > limit) {
      return { refusedUntil: resetAt, remaining: Math.max(0, limit - this.used), resetAt };
    }
    this.used += cost;
    return { refusedUntil: undefined, remaining: limit - this.used, resetAt };
  }

  reset(): void {
    this.windowSecond = 0;
    this.used = 0;
  }
}

/** The Retry-After value for a window opening at `openAt`: delta-seconds or an HTTP-date. */
export function retryAfterHeader(openAt: number, format: 'seconds' | 'date', now: number) {
  if (format === 'date') return new Date(openAt).toUTCString();
  return String(Math.max(1, Math.ceil((openAt - now) / 1000)));
}

/**
 * The rate-limit headers of an answer: IETF (`RateLimit-Policy` / `RateLimit`, structured fields),
 * GitHub-style `X-RateLimit-*` (reset as epoch seconds), or none.
 */
export function rateLimitHeaders(
  mode: 'ietf' | 'x' | 'none',
  limit: number,
  decision: RateDecision,
  now: number,
): Record<string, string> {
  if (mode === 'none') return {};
  if (mode === 'x') {
    return {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(decision.remaining),
      'x-ratelimit-reset': String(Math.ceil(decision.resetAt / 1000)),
    };
  }
  const t = Math.max(0, Math.ceil((decision.resetAt - now) / 1000));
  return {
    'ratelimit-policy': `"default";q=${limit};w=1`,
    ratelimit: `"default";r=${decision.remaining};t=${t}`,
  };
}
