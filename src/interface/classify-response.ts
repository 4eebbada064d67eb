/**
 * docs/INTERFACE.md, Errors, as one function: an answer's status (and, for 409, its
 * error code; for 429/503, its Retry-After) decides the error class. HTTP statuses are classified,
 * never retried here: the delivery worker owns durable retries.
 */
import {
  AuthError,
  InProgressError,
  PayloadTooLargeError,
  PermanentHttpError,
  RateLimitedError,
  TransientHttpError,
  type HttpErrorContext,
  type InterfaceError,
} from './errors.js';
import { retryAfterMs } from './retry-after.js';

/** Error code the platform (and the simulator) answers a 409 with when the key is still in flight. */
export const IN_PROGRESS_CODE = 'REQUEST_IN_PROGRESS';

const TRANSIENT = new Set([408, 500, 502, 504]);

/** Whether the answer counts as done: every 2xx (207 included) and a 404 to a DELETE (already gone). */
export function isSuccess(status: number, method: string): boolean {
  return (status >= 200 && status < 300) || (status === 404 && method === 'DELETE');
}

function errorCodeOf(body: unknown): unknown {
  if (!body || typeof body !== 'object') return undefined;
  const error = (body as { error?: unknown }).error;
  return error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

/**
 * The error for an answer that is not a success (see isSuccess), from the context built of it
 * (status, headers, parsed body). A 401 gives AuthError; the client renews the credential once
 * before letting one escape.
 */
export function classifyAnswer(ctx: HttpErrorContext, retryAfterCapMs: number): InterfaceError {
  const status = ctx.status ?? 0;
  const retryAfter = ctx.headers?.['retry-after'];
  if (status === 401) return new AuthError(ctx);
  if (status === 429) return new RateLimitedError(ctx, retryAfterMs(retryAfter, retryAfterCapMs));
  if (status === 503) {
    return retryAfter === undefined
      ? new TransientHttpError(ctx)
      : new RateLimitedError(ctx, retryAfterMs(retryAfter, retryAfterCapMs));
  }
  if (status === 409) {
    return errorCodeOf(ctx.body) === IN_PROGRESS_CODE
      ? new InProgressError(ctx)
      : new PermanentHttpError(ctx);
  }
  if (status === 413) return new PayloadTooLargeError(ctx);
  if (TRANSIENT.has(status)) return new TransientHttpError(ctx);
  // Other 5xx are the platform's trouble and may pass; any other status (400, 403, 404, 405, 422,
  // an unexpected 3xx or 4xx) will not change by sending the same request again.
  if (status >= 500) return new TransientHttpError(ctx);
  return new PermanentHttpError(ctx);
}
