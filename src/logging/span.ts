/**
 * Runs work as an OpenTelemetry span, with `@opentelemetry/api` only: a no-op until
 * src/logging/telemetry.ts registers a provider. The one place a span's failure is recorded.
 */
import {
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanOptions,
} from '@opentelemetry/api';

export const tracer = trace.getTracer('ferry');

/**
 * Runs `work` as the active span `name`, a child of `parent`'s span; a failure sets its status
 * ERROR and `error.type` (the error's code, else its class name: never its message).
 */
export function inSpan<T>(
  name: string,
  options: SpanOptions,
  parent: Context,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      if (span.isRecording()) {
        const code = (error as { code?: unknown }).code;
        const type = typeof code === 'string' ? code : (error as Error).name;
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
        span.setAttribute('error.type', type);
      }
      throw error;
    } finally {
      span.end();
    }
  });
}
