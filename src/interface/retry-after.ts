/** Wait asked by a 429 that carries no Retry-After (RFC 6585 leaves it to the client). */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

/**
 * How long a `Retry-After` header asks to wait, in ms: delta-seconds ("120") or an HTTP-date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"), capped at `capMs`. A date in the past means 0; a missing or
 * unreadable value means `fallbackMs` (also capped).
 */
export function retryAfterMs(
  value: string | undefined,
  capMs: number,
  fallbackMs = DEFAULT_RETRY_AFTER_MS,
  now = Date.now(),
): number {
  const wait = parse(value?.trim(), now);
  return Math.min(wait ?? fallbackMs, capMs);
}

function parse(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1_000;
  // Only the HTTP-date shape (a weekday name first), so that "1.5" or "-3" are not read as dates.
  if (!/^[A-Za-z]{3}/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
