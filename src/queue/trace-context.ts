/** A span's context as a job's data carries it across processes (W3C trace context). */
import { context, propagation } from '@opentelemetry/api';

/** The active span's context as a `traceparent` value; undefined when none is exported. */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}
