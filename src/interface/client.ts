/**
 * The HTTP client of the platform interface (contract: client-types.ts). A call is checked against
 * the configured listing before anything is sent, shaped by its binding, authenticated, carries an
 * idempotency key when it writes, and ends as a CallResponse or one error of the taxonomy
 * (errors.ts, classify-response.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import { credentialSetting, DEFAULT_PLATFORM, type FerryConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import { answerErrorContext, parseAnswerBody } from './answer-body.js';
import { createAuthProvider } from './auth/create-auth.js';
import { resolveBindings } from './bindings.js';
import { isWrite } from './catalog.js';
import { classifyAnswer, isSuccess } from './classify-response.js';
import type { Binding } from './bindings.js';
import type { Operation } from './catalog.js';
import type { CallRequest, CallResponse, InterfaceClient } from './client-types.js';
import { AuthError, type HttpErrorContext } from './errors.js';
import { buildRequestTarget } from './request-target.js';
import { resolveOperation } from './resolve-operation.js';
import { createTransport, type HttpAnswer } from './transport.js';
import {
  injectTraceContext,
  inRequestSpan,
  recordStatus,
  redactUrl,
  requestAttributes,
} from './request-span.js';

export interface InterfaceClientOptions {
  logger?: Logger;
  /** Sockets per origin; a worker passes its concurrency. Default: interface.connections. */
  connections?: number;
  /** Told of every answer (its status, or `error` when none came) and how long it took. */
  onAnswer?: (operationId: string, status: number | 'error', seconds: number) => void;
  /** The platform it speaks to (config/platforms.ts), for the key a refused credential names. */
  platform?: string;
}

/**
 * A success, its body parsed when first read: delivery reads the body of a 207 only, and a batch's
 * echo can be large. The getter is the class's, not the object's own (an object literal with a
 * getter took ~2 µs per answer on the delivery path, V8 building it the slow way); `toJSON` writes
 * the body as an own property would be (`ferry call --json`).
 */
class Success implements CallResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  #answer: HttpAnswer;
  #parsed: { body: unknown } | undefined;

  constructor(answer: HttpAnswer) {
    this.status = answer.status;
    this.headers = answer.headers;
    this.#answer = answer;
  }

  get body(): unknown {
    this.#parsed ??= {
      body: parseAnswerBody(this.#answer.text, this.#answer.headers['content-type']),
    };
    return this.#parsed.body;
  }

  toJSON(): CallResponse {
    return { status: this.status, headers: this.headers, body: this.body };
  }
}

const NO_CREDENTIAL: Record<string, string> = {};

/** An operation as the client sends it, resolved once. */
interface Resolved {
  operation: Operation;
  binding: Binding;
  /** It writes: it carries an idempotency key. */
  write: boolean;
}

export function createInterfaceClient(
  config: FerryConfig['interface'],
  options: InterfaceClientOptions = {},
): InterfaceClient {
  const { logger } = options;
  const bindings = resolveBindings(config.bindings);
  const base = new URL(config.useDemo ? config.demoBaseUrl : config.baseUrl);
  // A base URL may carry a path prefix (https://host/shop): operation paths go below it.
  const prefix = base.pathname.replace(/\/+$/, '');
  const transport = createTransport({
    connections: options.connections ?? config.connections,
    timeouts: config.timeouts,
    quickRetries: config.quickRetries,
    logger,
  });
  const auth = createAuthProvider(config.auth, {
    transport,
    retryAfterCapMs: config.retryAfterCapMs,
    baseUrl: base.href,
  });
  const credential = credentialSetting(options.platform ?? DEFAULT_PLATFORM, config.auth.type);
  // An API key in the query string goes after the call's own parameters.
  const credentialQuery = new URLSearchParams(auth.query).toString();
  const idempotencyHeader = config.idempotencyHeader.toLowerCase();
  // An operation is resolved (listing checked, binding found) once, not on every call.
  const resolved = new Map<string, Resolved>();

  function resolve(operationId: string): Resolved {
    const known = resolved.get(operationId);
    if (known) return known;
    const operation = resolveOperation(operationId, config.listing);
    const binding = bindings.get(operation.id);
    if (!binding) throw new Error(`no binding for ${operation.id}`); // resolveBindings covers all
    const entry: Resolved = { operation, binding, write: isWrite(operation) };
    resolved.set(operationId, entry);
    return entry;
  }

  /**
   * A call's headers, built in one object (it is sent once, and undici copies what it sends): the
   * credential's are added last, as they were by a spread.
   */
  function headersOf(
    key: string | undefined,
    hasBody: boolean,
    credential: Record<string, string>,
  ): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (hasBody) headers['content-type'] = 'application/json';
    if (key !== undefined) headers[idempotencyHeader] = key;
    for (const name in credential) headers[name] = credential[name] as string;
    return headers;
  }

  async function call(request: CallRequest): Promise<CallResponse> {
    const op = resolve(request.operationId); // an unknown operation rejects, sending nothing
    return await inRequestSpan(op.operation.method, (span) => callIn(span, op, request));
  }

  async function callIn(span: Span, op: Resolved, request: CallRequest): Promise<CallResponse> {
    const { operation } = op;
    const target = buildRequestTarget(op.binding, request);
    const method = operation.method;
    const ctx: HttpErrorContext = {
      operationId: operation.id,
      method,
      path: prefix + target.path,
      credential,
    };
    // A write's generated key is made once: a renewed credential sends the same request again.
    const key = op.write ? (request.idempotencyKey ?? randomUUID()) : undefined;
    const path = prefix + target.pathAndQuery;
    if (span.isRecording()) {
      span.setAttributes(
        requestAttributes({
          method,
          url: redactUrl(base.origin + path, auth.secrets()),
          operationId: operation.id,
          idempotencyKey: key,
          itemCount: request.itemCount,
        }),
      );
    }

    const open = op.binding.public;
    const pathAndQuery =
      open || credentialQuery === ''
        ? target.pathAndQuery
        : `${target.pathAndQuery}${target.pathAndQuery.includes('?') ? '&' : '?'}${credentialQuery}`;
    let renewed = false;
    for (;;) {
      // An operation the description leaves open (`security: []`) is sent without a credential.
      const pending = open ? NO_CREDENTIAL : auth.headers(ctx, op.binding.scopes);
      const credential = pending instanceof Promise ? await pending : pending;
      const debug = logger?.isLevelEnabled('debug') === true;
      const headers = headersOf(key, target.body !== undefined, credential);
      injectTraceContext(headers);
      const started = performance.now();
      let answer;
      try {
        answer = await transport.send(
          {
            origin: base.origin,
            method,
            path: prefix + pathAndQuery,
            headers,
            body: target.body,
            signal: request.signal,
          },
          ctx,
        );
      } catch (error) {
        options.onAnswer?.(operation.id, 'error', (performance.now() - started) / 1000);
        throw error;
      }
      options.onAnswer?.(operation.id, answer.status, (performance.now() - started) / 1000);
      recordStatus(span, answer.status);
      if (debug && logger) {
        logger.debug(
          { ...ctx, status: answer.status, ms: Math.round(performance.now() - started) },
          'interface call',
        );
      }
      if (isSuccess(answer.status, method)) return new Success(answer);
      if (answer.status === 401 && !renewed && !open && auth.renew(credential)) {
        renewed = true;
        span.addEvent('ferry.credential_renewed', { 'http.response.status_code': 401 });
        logger?.info({ operationId: operation.id }, 'credential refused (401); renewing it once');
        continue;
      }
      const errorCtx = answerErrorContext(ctx, answer, auth.secrets());
      if (answer.status === 401 && !renewed) {
        throw new AuthError(
          errorCtx,
          open
            ? 'authentication failed (401): the operation was sent without a credential, as its binding is public (the description says security: [])'
            : `authentication failed (401): the platform refused the configured ${config.auth.type} credential`,
        );
      }
      throw classifyAnswer(errorCtx, config.retryAfterCapMs);
    }
  }

  return {
    call,
    binding: (operationId) => resolve(operationId).binding,
    close: (abandon) => transport.close(abandon),
  };
}
