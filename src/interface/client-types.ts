/** The HTTP client's contract; implemented in src/interface/client.ts. */
import type { Binding } from './bindings.js';

export interface CallRequest {
  operationId: string;
  pathParams?: Record<string, string>;
  query?: Record<string, string | string[]>;
  /** JSON-serialisable body; omitted for GET. */
  body?: unknown;
  /** The body as JSON text already (sent as it is, instead of `body`). */
  bodyJson?: string;
  /** Sent as the configured idempotency header; writes get a generated one when omitted. */
  idempotencyKey?: string;
  /** Items the request carries: its span's `ferry.item_count`. */
  itemCount?: number;
  signal?: AbortSignal;
}

export interface CallResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the answer was JSON, else the text (or null when empty). */
  body: unknown;
}

/**
 * Calls operations of the interface. Resolves for 2xx (207 included: the caller reads per-item
 * results) and for 404 on DELETE (already gone, which counts as done); throws an InterfaceError
 * subclass (src/interface/errors.ts) for everything else.
 */
export interface InterfaceClient {
  call(request: CallRequest): Promise<CallResponse>;
  /** How an operation is called here (its path, body shape, pages, answers). */
  binding(operationId: string): Binding;
  /** Waits for the calls in flight; `abandon` fails them at once instead (a worker that stops). */
  close(abandon?: boolean): Promise<void>;
}
