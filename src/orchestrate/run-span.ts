/**
 * The trace id a run's record keeps (its spans `ferry.run` and `ferry.plan`: start-run.ts, with
 * src/logging's inSpan). Only `@opentelemetry/api`: a no-op until src/logging/telemetry.ts
 * registers a provider.
 */
import { isSpanContextValid, trace, TraceFlags } from '@opentelemetry/api';

/** The active span's trace id when it is exported (sampled): what a run's record keeps. */
export function activeTraceId(): string | undefined {
  const ids = trace.getActiveSpan()?.spanContext();
  if (!ids || !isSpanContextValid(ids) || (ids.traceFlags & TraceFlags.SAMPLED) === 0) return;
  return ids.traceId;
}
