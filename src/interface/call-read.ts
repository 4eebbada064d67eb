/**
 * One read of the platform (a page of a listing), retried as delivery retries: transient failures
 * up to delivery.attempts with delivery.backoff, a 429 after its Retry-After. Every read of a
 * listing goes through it, page by page (read-pages.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FerryConfig } from '../config/index.js';
import type { CallResponse, InterfaceClient } from './client-types.js';
import { InterfaceError, RateLimitedError } from './errors.js';
import { backoffDelay } from './backoff.js';

export interface ReadCall {
  client: InterfaceClient;
  delivery: FerryConfig['delivery'];
  operationId: string;
  query: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Told before each request (a count of requests). */
  onRequest?: (() => void) | undefined;
}

/** The answer (its body, and its headers: a `Link` to the next page). */
export async function callRead(read: ReadCall): Promise<CallResponse> {
  for (let attempt = 1; ; attempt += 1) {
    read.onRequest?.();
    try {
      const answer = await read.client.call({
        operationId: read.operationId,
        query: read.query,
        ...(read.signal ? { signal: read.signal } : {}),
      });
      return answer;
    } catch (error) {
      const retry = error instanceof InterfaceError && error.retryable;
      if (!retry || attempt >= read.delivery.attempts || read.signal?.aborted) throw error;
      const wait =
        error instanceof RateLimitedError
          ? error.retryAfterMs
          : backoffDelay(attempt, read.delivery.backoff);
      await sleep(wait, undefined, read.signal ? { signal: read.signal } : {});
    }
  }
}
