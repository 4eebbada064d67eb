/**
 * A run's trace context as its jobs carry it across processes (W3C trace context), and the span
 * of a stage's release, the parent of the stage's jobs. Only `@opentelemetry/api`: a no-op until
 * src/logging/telemetry.ts registers a provider.
 */
import { context, propagation, ROOT_CONTEXT, type Attributes, type Span } from '@opentelemetry/api';
import { inSpan } from '../logging/index.js';

/** The active span's context as a `traceparent` value; undefined when none is exported. */
export function activeTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * Runs `work` as the span `ferry.stage`, a child of the run whose context `runTraceparent` is
 * (a stage released by the worker that settled the one before), else of the active span.
 */
export function inStageSpan<T>(
  runTraceparent: string | undefined,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = runTraceparent
    ? propagation.extract(ROOT_CONTEXT, { traceparent: runTraceparent })
    : context.active();
  return inSpan('ferry.stage', { attributes }, parent, work);
}
