/**
 * What a platform's answer says of its rate limit, read from the headers platforms send:
 * - IETF (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "name";q=100;w=60` with
 *   `RateLimit: "name";r=42;t=10` (structured fields), or the earlier drafts' `RateLimit-Limit`,
 *   `RateLimit-Remaining`, `RateLimit-Reset` with `RateLimit-Policy: 100;w=60`;
 * - `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (delta seconds, or epoch
 *   seconds as GitHub sends). These name no window: the caller learns it from the resets it sees.
 * Header names are lower-case (undici's). Undefined when the answer says nothing usable.
 */
export interface RateLimitHeaders {
  /** Requests (or cost units) allowed per window. */
  quota: number;
  /** The window in seconds, when the headers name it. */
  windowSeconds?: number;
  /** What is left of the quota in the current window. */
  remaining?: number;
  /** Seconds until the window resets. */
  resetSeconds?: number;
  format: 'ietf' | 'x';
}

/** An epoch-seconds reset (GitHub's) against a delta: no window is 30 years long. */
const EPOCH_SECONDS = 1e9;

function number(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** `key=value` parameters of the first item of a structured field (`"p";q=100;w=60`, `100;w=60`). */
function params(field: string): { item: string; values: Map<string, string> } {
  const first = field.split(',')[0] ?? '';
  const [item = '', ...rest] = first.split(';').map((part) => part.trim());
  const values = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) values.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return { item, values };
}

function resetSeconds(value: string | undefined, nowMs: number): number | undefined {
  const n = number(value);
  if (n === undefined) return undefined;
  return n > EPOCH_SECONDS ? Math.max(0, n - nowMs / 1000) : n;
}

function ietf(headers: Record<string, string>, nowMs: number): RateLimitHeaders | undefined {
  const policy = headers['ratelimit-policy'];
  const state = headers['ratelimit'];
  if (policy === undefined && headers['ratelimit-limit'] === undefined) return undefined;
  const p = policy === undefined ? undefined : params(policy);
  // The structured form names its quota `q`; the earlier drafts give it as the item itself.
  const quota = number(p?.values.get('q')) ?? number(p?.item) ?? number(headers['ratelimit-limit']);
  if (quota === undefined) return undefined;
  const s = state === undefined ? undefined : params(state);
  return {
    format: 'ietf',
    quota,
    windowSeconds: number(p?.values.get('w')),
    remaining: number(s?.values.get('r')) ?? number(headers['ratelimit-remaining']),
    resetSeconds: number(s?.values.get('t')) ?? resetSeconds(headers['ratelimit-reset'], nowMs),
  };
}

function xHeaders(headers: Record<string, string>, nowMs: number): RateLimitHeaders | undefined {
  const quota = number(headers['x-ratelimit-limit']);
  if (quota === undefined) return undefined;
  return {
    format: 'x',
    quota,
    remaining: number(headers['x-ratelimit-remaining']),
    resetSeconds: resetSeconds(headers['x-ratelimit-reset'], nowMs),
  };
}

export function readRateLimitHeaders(
  headers: Record<string, string> | undefined,
  nowMs = Date.now(),
): RateLimitHeaders | undefined {
  if (headers === undefined) return undefined;
  return ietf(headers, nowMs) ?? xHeaders(headers, nowMs);
}

/** Whether an answer carries any rate-limit header at all (cheap: asked of every answer). */
export function hasRateLimitHeaders(headers: Record<string, string> | undefined): boolean {
  return (
    headers !== undefined &&
    (headers['ratelimit-policy'] !== undefined ||
      headers['ratelimit-limit'] !== undefined ||
      headers['x-ratelimit-limit'] !== undefined)
  );
}
