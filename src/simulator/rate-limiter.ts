/** A fixed one-second window: more than `limit` requests in the current second are refused. */
export class RateLimiter {
  private windowSecond = 0;
  private count = 0;

  /** Undefined when the request may go on, else the epoch ms at which the next window opens. */
  check(limit: number, now = Date.now()): number | undefined {
    if (limit <= 0) return undefined;
    const second = Math.floor(now / 1000);
    if (second !== this.windowSecond) {
      this.windowSecond = second;
      this.count = 0;
    }
    this.count += 1;
    return this.count > limit ? (second + 1) * 1000 : undefined;
  }

  reset(): void {
    this.windowSecond = 0;
    this.count = 0;
  }
}

/** The Retry-After value for a window opening at `openAt`: delta-seconds or an HTTP-date. */
export function retryAfterHeader(openAt: number, format: 'seconds' | 'date', now = Date.now()) {
  if (format === 'date') return new Date(openAt).toUTCString();
  return String(Math.max(1, Math.ceil((openAt - now) / 1000)));
}
