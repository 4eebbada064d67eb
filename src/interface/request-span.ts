/**
 * A span per HTTP request to the platform (the OpenTelemetry HTTP client conventions, plus
 * Ferry's own `ferry.*` attributes), and the `traceparent` it carries. Only `@opentelemetry/api`:
 * until src/logging/telemetry.ts registers a provider every call here is a no-op.
 */
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import { inSpan } from '../logging/index.js';
import { scrubSecrets } from './scrub-secrets.js';

/** Query parameters whose values are credentials, whatever the platform calls them. */
const SECRET_PARAM = /([?&][^=&#]*(?:key|token|secret|password|signature|sig)[^=&#]*=)[^&#]*/gi;

/** The URL as a span may show it: no credential in its query, no configured secret anywhere. */
export function redactUrl(url: string, secrets: readonly string[]): string {
  return scrubSecrets(url.replace(SECRET_PARAM, '$1[redacted]'), secrets);
}

export interface RequestSpanFacts {
  method: string;
  url: string;
  operationId: string;
  idempotencyKey: string | undefined;
  itemCount: number | undefined;
}

/** The request's attributes before it is sent. */
export function requestAttributes(facts: RequestSpanFacts): Attributes {
  const attributes: Attributes = {
    'http.request.method': facts.method,
    'url.full': facts.url,
    'server.address': new URL(facts.url).hostname,
    'ferry.operation': facts.operationId,
  };
  const port = new URL(facts.url).port;
  if (port) attributes['server.port'] = Number(port);
  if (facts.idempotencyKey !== undefined)
    attributes['ferry.idempotency_key'] = facts.idempotencyKey;
  if (facts.itemCount !== undefined) attributes['ferry.item_count'] = facts.itemCount;
  return attributes;
}

/** Runs `send` as the active span `HTTP <METHOD>`, of kind CLIENT, ending it with its outcome. */
export function inRequestSpan<T>(method: string, send: (span: Span) => Promise<T>): Promise<T> {
  return inSpan(`HTTP ${method}`, { kind: SpanKind.CLIENT }, context.active(), send);
}

/** The answer's status on the request span (4xx and 5xx mark it as an error: a client span). */
export function recordStatus(span: Span, status: number): void {
  if (!span.isRecording()) return;
  span.setAttribute('http.response.status_code', status);
  if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR, message: String(status) });
}

/** Adds `traceparent` (and `tracestate`) of the active span to the request's headers. */
export function injectTraceContext(headers: Record<string, string>): void {
  propagation.inject(context.active(), headers);
}
