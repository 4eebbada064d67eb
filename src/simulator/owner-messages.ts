/** What serving processes and the owner of the state say to each other (line-channel.ts). */
import type { SimResponse } from './http-io.js';
import type { WritePlan } from './write-plan.js';

/** What serving processes check and plan with: the token and the reject keys, at a version. */
export interface ServingSettings {
  version: number;
  token: string;
  rejectKeys: string[];
}

/** One interface write, read, authenticated and planned by a serving process. */
export interface WriteRequest {
  id: number;
  /** The settings version it was checked and planned with; an older one is planned again. */
  version: number;
  operationId: string;
  method: string;
  /** The URL's pathname (routed) and the request target's path (logged). */
  pathname: string;
  path: string;
  search: string;
  key: string | null;
  fingerprint: string;
  items: number;
  traceparent?: string;
  /** The write planned; without one, `body` for the owner to execute it. */
  plan?: WritePlan;
  body?: unknown;
}

/** The latency of a request has passed: go on with it. */
export interface LatencyPassed {
  id: number;
  go: true;
}

export type ToOwner = WriteRequest | LatencyPassed;

/** Rate-limit headers, set on whatever answer the request gets. */
type Headed = { id: number; headers?: Record<string, string> };

export type Reply = Headed &
  (
    | { replan: true }
    | { wait: number }
    | { answer: SimResponse; wait?: number }
    | { chosen: 'then' | 'otherwise' }
    | { destroy: true }
  );

export type ToServing = Reply | { settings: ServingSettings };
