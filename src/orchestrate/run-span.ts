/**
 * The spans of a run's start: `ferry.run` (the released jobs' spans are its children, through
 * the `traceparent` their data carries) and `ferry.plan` within it. Only `@opentelemetry/api`:
 * a no-op until src/logging/telemetry.ts registers a provider.
 */
import {
  isSpanContextValid,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Span,
} from '@opentelemetry/api';

const tracer = trace.getTracer('ferry');

/** Runs `work` as the active span `name`; a failure marks it as an error. */
export function inRunSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active span's trace id when it is exported (sampled): what a run's record keeps. */
export function activeTraceId(): string | undefined {
  const ids = trace.getActiveSpan()?.spanContext();
  if (!ids || !isSpanContextValid(ids) || (ids.traceFlags & TraceFlags.SAMPLED) === 0) return;
  return ids.traceId;
}
