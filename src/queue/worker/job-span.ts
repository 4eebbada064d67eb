/**
 * A span per delivery job (its requests' spans are its children), child of its stage's release
 * (`ferry.stage`, a child of the run) when the job carries its `traceparent` (release-stage.ts). Only
 * `@opentelemetry/api`: a no-op until src/logging/telemetry.ts registers a provider.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { DelayedError, type Job } from 'bullmq';
import { tracer } from '../../logging/index.js';
import { DeliveryDeferredError, type DeliveryJobData, type Lane } from '../../runs/index.js';

/** Runs `work` as the active span `ferry.job`; a deferral (retry) shows as an event on it. */
export function inJobSpan<T>(
  job: Job<DeliveryJobData>,
  lane: Lane,
  platform: string,
  work: () => Promise<T>,
): Promise<T> {
  const { traceparent } = job.data;
  const parent = traceparent
    ? propagation.extract(ROOT_CONTEXT, { traceparent })
    : context.active();
  const options = {
    kind: SpanKind.CONSUMER,
    attributes: {
      'ferry.run_id': job.data.runId,
      'ferry.pipeline': job.data.pipeline,
      'ferry.platform': platform,
      'ferry.job_id': job.data.job ?? job.id ?? '',
      'ferry.stage': job.data.stage,
      'ferry.lane': lane,
      'ferry.attempt': job.attemptsMade + 1,
    },
  };
  return tracer.startActiveSpan('ferry.job', options, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      // A job moved back to wait (blocked, handed back) is no failure; a deferral is a retry.
      if (error instanceof DeliveryDeferredError) {
        span.addEvent('ferry.retry_scheduled', { 'ferry.reason': error.message });
      } else if (!(error instanceof DelayedError)) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).name });
      }
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Dead-lettered items mark the job's span as failed. */
export function markDeadLettered(entries: number, items: number): void {
  const span = trace.getActiveSpan();
  if (!span || entries === 0) return;
  span.setAttribute('ferry.dead_letters', entries);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: `${items} item(s) dead-lettered in ${entries} entr${entries === 1 ? 'y' : 'ies'}`,
  });
}

/** A 429 (or 503 with Retry-After): the delivery waits, shown as an event of the job's span. */
export function markRateLimited(status: number | undefined, waitMs: number): void {
  trace.getActiveSpan()?.addEvent('ferry.rate_limited', {
    'http.response.status_code': status ?? 0,
    'ferry.wait_ms': waitMs,
  });
}
