/**
 * Exponential backoff with full jitter (AWS architecture blog, "Exponential Backoff And Jitter"):
 * the n-th retry waits a uniformly random time in [0, min(cap, base * 2^(n-1))]. The jitter spreads
 * the retries of jobs that failed together (a platform outage) instead of sending them in waves.
 */
export interface BackoffSettings {
  baseMs: number;
  capMs: number;
}

export function backoffDelay(
  attemptsMade: number,
  settings: BackoffSettings,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(attemptsMade - 1, 0), 30);
  const ceiling = Math.min(settings.capMs, settings.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}
