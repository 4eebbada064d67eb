/**
 * One HTTP exchange over undici: an Agent keeps one keep-alive Pool per origin (the interface's, and
 * an OAuth2 token endpoint's), bounded to `connections` sockets each, with connect/headers/body
 * timeouts. Connection-level failures become NetworkError/TimeoutError; a socket that breaks before
 * any answer (typically a keep-alive socket the server had just closed) is retried here, quickly and
 * a few times (p-retry). HTTP statuses are returned, never retried: that is the worker's job.
 */
import pRetry from 'p-retry';
import { Agent } from 'undici';
import type { Logger } from '../logging/index.js';
import {
  NetworkError,
  TimeoutError,
  type HttpErrorContext,
  type InterfaceError,
} from './errors.js';

export interface HttpRequest {
  origin: string;
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpAnswer {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export interface TransportOptions {
  connections: number;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  /** Quick in-process retries of a socket that broke before any answer. */
  quickRetries: number;
  logger?: Logger;
}

export interface Transport {
  /** `ctx` names the call in errors (operation, method, path without query). */
  send(request: HttpRequest, ctx: HttpErrorContext): Promise<HttpAnswer>;
  /** Waits for the requests in flight; `abandon` fails them at once instead. */
  close(abandon?: boolean): Promise<void>;
}

/** Failures where the server gave no answer at all, so sending again is what a browser would do. */
const QUICK_RETRY_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const TIMEOUT_PHASES: Record<string, 'connect' | 'headers' | 'body'> = {
  UND_ERR_CONNECT_TIMEOUT: 'connect',
  UND_ERR_HEADERS_TIMEOUT: 'headers',
  UND_ERR_BODY_TIMEOUT: 'body',
};
const NETWORK_CODES = new Set([
  ...QUICK_RETRY_CODES,
  'ECONNREFUSED',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

function ownCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The system or undici code of a failure (undici sometimes wraps the socket's error as `cause`). */
function codeOf(error: unknown): string | undefined {
  return ownCode(error) ?? ownCode((error as { cause?: unknown } | null)?.cause);
}

/** Connection-level failures as the taxonomy's errors; anything else (an abort, a bug) as it was. */
function toInterfaceError(error: unknown, ctx: HttpErrorContext): InterfaceError | unknown {
  const code = codeOf(error);
  if (code === undefined) return error;
  const phase = TIMEOUT_PHASES[code];
  if (phase) return new TimeoutError(ctx, phase);
  return NETWORK_CODES.has(code) ? new NetworkError(ctx, error) : error;
}

function brokeBeforeAnswer(error: unknown): boolean {
  return error instanceof NetworkError && QUICK_RETRY_CODES.has(codeOf(error.cause) ?? '');
}

/**
 * The answer's headers with repeated ones joined, in the object undici parsed them into (it is
 * this answer's own, and copying it cost an object per answer on the delivery path).
 */
function flattenHeaders(
  raw: Record<string, string | string[] | undefined>,
): Record<string, string> {
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined) delete raw[name];
    else if (Array.isArray(value)) raw[name] = value.join(', ');
  }
  return raw as Record<string, string>;
}

export function createTransport(options: TransportOptions): Transport {
  const { timeouts, logger } = options;
  const agent = new Agent({
    connections: options.connections,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });

  function dispatch(request: HttpRequest) {
    return agent.request({
      origin: request.origin,
      path: request.path,
      method: request.method as 'GET',
      headers: request.headers,
      body: request.body ?? null,
      signal: request.signal ?? null,
    });
  }

  async function untilHeaders(request: HttpRequest, ctx: HttpErrorContext) {
    try {
      return await dispatch(request);
    } catch (error) {
      throw toInterfaceError(error, ctx);
    }
  }

  /** The quick retries after a first attempt that broke before any answer (p-retry). */
  function retryAfterBreak(request: HttpRequest, ctx: HttpErrorContext, firstError: unknown) {
    let first: unknown = firstError;
    return pRetry(
      () => {
        if (first === undefined) return untilHeaders(request, ctx);
        const error = first; // attempt 1 already ran (below): p-retry handles its failure
        first = undefined;
        throw error;
      },
      {
        retries: options.quickRetries,
        minTimeout: 10,
        maxTimeout: 100,
        randomize: true,
        signal: request.signal,
        shouldRetry: ({ error }) => brokeBeforeAnswer(error),
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
          if (brokeBeforeAnswer(error) && retriesLeft > 0) {
            logger?.debug(
              { operationId: ctx.operationId, attempt: attemptNumber, code: codeOf(error.cause) },
              'connection broke before an answer; retrying at once',
            );
          }
        },
      },
    );
  }

  return {
    async send(request, ctx) {
      // The first attempt goes without p-retry (its options and closures cost ~10 µs per call on
      // the delivery path); only a socket that broke before any answer enters the retry loop.
      request.signal?.throwIfAborted();
      let response: Awaited<ReturnType<typeof untilHeaders>>;
      try {
        response = await dispatch(request);
      } catch (failure) {
        const error = toInterfaceError(failure, ctx);
        if (!brokeBeforeAnswer(error) || options.quickRetries <= 0) throw error;
        response = await retryAfterBreak(request, ctx, error);
      }
      request.signal?.throwIfAborted();
      let text: string;
      try {
        text = await response.body.text();
      } catch (error) {
        throw toInterfaceError(error, ctx);
      }
      return { status: response.statusCode, headers: flattenHeaders(response.headers), text };
    },
    async close(abandon = false) {
      await (abandon ? agent.destroy() : agent.close());
    },
  };
}
