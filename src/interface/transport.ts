/**
 * One HTTP exchange over undici: an Agent keeps one keep-alive Pool per origin (the interface's, and
 * an OAuth2 token endpoint's), bounded to `connections` sockets each, with connect/headers/body
 * timeouts. Connection-level failures become NetworkError/TimeoutError; a socket that breaks before
 * any answer (typically a keep-alive socket the server had just closed) is retried here, quickly and
 * a few times (p-retry). HTTP statuses are returned, never retried: that is the worker's job.
 */
import { trace } from '@opentelemetry/api';
import pRetry from 'p-retry';
import { Agent, type Dispatcher } from 'undici';
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

/**
 * Connection-level failures as the taxonomy's errors, naming the origin that could not be reached
 * (with several platforms, or a token endpoint elsewhere, the path alone does not say which);
 * anything else (an abort, a bug) as it was.
 */
function toInterfaceError(
  error: unknown,
  ctx: HttpErrorContext,
  origin: string,
): InterfaceError | unknown {
  const code = codeOf(error);
  if (code === undefined) return error;
  const phase = TIMEOUT_PHASES[code];
  if (phase) return new TimeoutError(ctx, phase, origin);
  return NETWORK_CODES.has(code) ? new NetworkError(ctx, error, origin) : error;
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

/** The body's text as undici's `body.text()` gives it: UTF-8, a leading byte-order mark dropped. */
function decodeBody(chunks: Buffer[], length: number): string {
  if (length === 0) return '';
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/**
 * One exchange as an undici dispatch handler: the answer's status, headers and body collected
 * straight from the connection into one promise. undici's `request()` makes an AsyncResource and a
 * Readable stream per answer, and reading its text goes through the stream's events and ticks,
 * for a body read whole anyway (docs/BENCHMARKS.md, Delivery, twelfth session).
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  readonly answer: Promise<HttpAnswer>;
  /** The answer's head came: a failure now is not one of a socket that broke before any answer. */
  answered = false;
  private status = 0;
  private headers: Record<string, string> = {};
  private chunks: Buffer[] = [];
  private length = 0;
  private resolve!: (answer: HttpAnswer) => void;
  private reject!: (error: unknown) => void;
  private controller: Dispatcher.DispatchController | undefined;
  private readonly onAbort: (() => void) | undefined;

  constructor(private readonly signal: AbortSignal | undefined) {
    this.answer = new Promise<HttpAnswer>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (signal) {
      this.onAbort = () => this.controller?.abort(signal.reason);
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(this.signal.reason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // an informational answer: the real one follows
    this.answered = true;
    this.status = statusCode;
    this.headers = flattenHeaders(headers);
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }

  onResponseEnd(): void {
    this.done();
    this.resolve({
      status: this.status,
      headers: this.headers,
      text: decodeBody(this.chunks, this.length),
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.done();
    this.reject(error);
  }

  private done(): void {
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
  }
}

export function createTransport(options: TransportOptions): Transport {
  const { timeouts, logger } = options;
  const agent = new Agent({
    connections: options.connections,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });

  /** Sends the request; its reader collects the answer. */
  function dispatch(request: HttpRequest): AnswerReader {
    const reader = new AnswerReader(request.signal);
    agent.dispatch(
      {
        origin: request.origin,
        path: request.path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body ?? null,
      },
      reader,
    );
    return reader;
  }

  /** The quick retries after a first attempt that broke before any answer (p-retry). */
  function retryAfterBreak(request: HttpRequest, ctx: HttpErrorContext, firstError: unknown) {
    let first: unknown = firstError;
    // A failure after the answer's head came (a body cut short) is not retried.
    let answered = false;
    return pRetry(
      async () => {
        if (first === undefined) {
          const reader = dispatch(request);
          try {
            return await reader.answer;
          } catch (error) {
            answered = reader.answered;
            throw toInterfaceError(error, ctx, request.origin);
          }
        }
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
        shouldRetry: ({ error }) => !answered && brokeBeforeAnswer(error),
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
          if (!answered && brokeBeforeAnswer(error) && retriesLeft > 0) {
            // The request span (request-span.ts) shows each quick retry.
            trace.getActiveSpan()?.addEvent('ferry.retry', {
              'ferry.attempt': attemptNumber + 1,
              'error.type': codeOf(error.cause) ?? error.name,
            });
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
      const reader = dispatch(request);
      try {
        return await reader.answer;
      } catch (failure) {
        const error = toInterfaceError(failure, ctx, request.origin);
        if (reader.answered || !brokeBeforeAnswer(error) || options.quickRetries <= 0) throw error;
        return await retryAfterBreak(request, ctx, error);
      }
    },
    async close(abandon = false) {
      await (abandon ? agent.destroy() : agent.close());
    },
  };
}
