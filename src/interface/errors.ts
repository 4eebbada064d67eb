/**
 * The interface's error taxonomy (docs/INTERFACE.md, Errors). One small class per outcome;
 * the worker decides what to do by `code`/class, never by message text.
 *   transient    -> retry with backoff (network, timeout, 408, 409 in progress, 500, 502, 503, 504)
 *   rate limited -> wait as told, without spending an attempt (429, 503 with Retry-After)
 *   permanent    -> dead letter at once (400, 403, 404 except on DELETE, 405, 422, other 409)
 *   too large    -> split the batch (413)
 *   auth         -> 401 after one credential refresh
 */
import { FerryError } from '../errors/index.js';

export interface HttpErrorContext {
  operationId: string;
  method: string;
  /** Path with parameters filled in; never the query string (it may carry credentials). */
  path: string;
  status?: number;
  /** The first bytes of the answer's body, for dead letters and reports. */
  bodyExcerpt?: string;
  /** Parsed answer body when it was JSON (per-item results of a 4xx, say). */
  body?: unknown;
  /** The answer's headers (lower-case names); never the request's, which carry the credential. */
  headers?: Record<string, string>;
  /** Where the platform's credential is set (a config key, its variable): an AuthError names it. */
  credential?: string;
}

type InterfaceCode =
  | 'FERRY_HTTP_TRANSIENT'
  | 'FERRY_HTTP_IN_PROGRESS'
  | 'FERRY_HTTP_RATE_LIMITED'
  | 'FERRY_HTTP_PERMANENT'
  | 'FERRY_HTTP_PAYLOAD_TOO_LARGE'
  | 'FERRY_HTTP_AUTH'
  | 'FERRY_NETWORK'
  | 'FERRY_TIMEOUT';

export abstract class InterfaceError extends FerryError<InterfaceCode> {
  /** Whether a later attempt may succeed. */
  abstract readonly retryable: boolean;
  readonly context: HttpErrorContext;
  constructor(message: string, context: HttpErrorContext, options?: ErrorOptions) {
    super(message, { ...context, body: undefined }, options);
    this.context = context;
  }
  get status(): number | undefined {
    return this.context.status;
  }
}

function describe(ctx: HttpErrorContext): string {
  const status = ctx.status === undefined ? '' : ` answered ${ctx.status}`;
  return `${ctx.operationId} (${ctx.method} ${ctx.path})${status}`;
}

export class TransientHttpError extends InterfaceError {
  readonly code = 'FERRY_HTTP_TRANSIENT';
  /** The platform could not be reached: try again later (exit code 5). */
  override readonly exitCode = 5;
  readonly retryable = true;
  constructor(ctx: HttpErrorContext) {
    super(
      `${describe(ctx)}: a temporary failure of the platform; a later attempt may succeed.`,
      ctx,
    );
  }
}

export class InProgressError extends InterfaceError {
  readonly code = 'FERRY_HTTP_IN_PROGRESS';
  readonly retryable = true;
  constructor(ctx: HttpErrorContext) {
    super(
      `${describe(ctx)}: the same idempotency key is still being processed; a later attempt may succeed.`,
      ctx,
    );
  }
}

export class RateLimitedError extends InterfaceError {
  readonly code = 'FERRY_HTTP_RATE_LIMITED';
  readonly retryable = true;
  /** How long the platform asked us to wait, already capped. */
  readonly retryAfterMs: number;
  constructor(ctx: HttpErrorContext, retryAfterMs: number) {
    super(`${describe(ctx)}: rate limited; waiting ${retryAfterMs} ms as asked.`, ctx);
    this.retryAfterMs = retryAfterMs;
  }
}

export class PermanentHttpError extends InterfaceError {
  readonly code = 'FERRY_HTTP_PERMANENT';
  readonly retryable = false;
  constructor(ctx: HttpErrorContext) {
    const excerpt = ctx.bodyExcerpt ? `: ${ctx.bodyExcerpt.slice(0, 200)}` : '';
    super(`${describe(ctx)}: the platform refused the request${excerpt}`, ctx);
  }
}

export class PayloadTooLargeError extends InterfaceError {
  readonly code = 'FERRY_HTTP_PAYLOAD_TOO_LARGE';
  readonly retryable = false;
  constructor(ctx: HttpErrorContext) {
    super(`${describe(ctx)}: the request is too large; split the batch.`, ctx);
  }
}

export class AuthError extends InterfaceError {
  readonly code = 'FERRY_HTTP_AUTH';
  readonly retryable = false;
  /** `reason` replaces the default explanation, e.g. for a credential that cannot be refreshed. */
  constructor(ctx: HttpErrorContext, reason?: string) {
    const why = reason ?? 'authentication failed (401) after refreshing credentials once';
    super(`${describe(ctx)}: ${why}. Check ${ctx.credential ?? 'interface.auth'}.`, ctx);
  }
}

export class NetworkError extends InterfaceError {
  readonly code = 'FERRY_NETWORK';
  /** The platform could not be reached: try again later (exit code 5). */
  override readonly exitCode = 5;
  readonly retryable = true;
  /** `origin`: the scheme, host and port it could not reach (never a credential: no userinfo). */
  constructor(ctx: HttpErrorContext, cause: unknown, origin: string) {
    const why =
      cause instanceof Error ? ((cause as { code?: string }).code ?? cause.name) : 'error';
    super(
      `${describe(ctx)}: connection to ${origin} failed (${why}); a later attempt may succeed.`,
      ctx,
      { cause },
    );
  }
}

export class TimeoutError extends InterfaceError {
  readonly code = 'FERRY_TIMEOUT';
  /** The platform could not be reached: try again later (exit code 5). */
  override readonly exitCode = 5;
  readonly retryable = true;
  /** Which of interface.timeouts ran out. */
  readonly phase: 'connect' | 'headers' | 'body';
  constructor(ctx: HttpErrorContext, phase: 'connect' | 'headers' | 'body', origin: string) {
    super(
      `${describe(ctx)}: no ${phase} from ${origin} within the configured timeout; a later attempt may succeed.`,
      ctx,
    );
    this.phase = phase;
  }
}
