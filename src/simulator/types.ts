/** The simulator's public types: what startSimulator takes and what it hands back. */
import type { BindingConfig, Listing } from '../config/index.js';

/** Fault injection; every share is drawn from one seeded PRNG, so a seed reproduces the outcomes. */
export interface Faults {
  /** Share of interface requests answered 500, 502 or 503 (no Retry-After), before anything is applied. */
  failRate: number;
  /** Most interface requests per wall-clock second; above it 429 with Retry-After. 0: no limit. */
  rateLimit: number;
  /** Milliseconds added to each answer, drawn in [min, max]; null: none. */
  latency: [number, number] | null;
  /** Share of interface requests whose connection is destroyed without an answer; nothing applied. */
  resetRate: number;
  /** Share of writes applied (answer stored under the idempotency key), then the connection destroyed. */
  applyThenFailRate: number;
  /** Items with these externalIds, and writes whose productId is one of them, are refused with 422. */
  rejectKeys: string[];
  /** Format of the 429 Retry-After header: delta-seconds or an HTTP-date. */
  retryAfter: 'seconds' | 'date';
  /** Rate-limit headers on every interface answer while rateLimit is set: IETF, X-RateLimit-*, none. */
  rateLimitHeaders: 'ietf' | 'x' | 'none';
  /** What rateLimit counts: requests, or items (a request costs its items, as cost-based limits do). */
  rateLimitCost: 'requests' | 'items';
}

export interface SimulatorOptions {
  /** 0 (the default here) picks a free port; the CLI defaults to 4010. */
  port?: number;
  host?: string;
  listing?: Listing;
  /** The bearer token every interface request must carry. Default `dev-token`. */
  token?: string;
  idempotencyHeader?: string;
  /** Seed of the fault PRNG and of the synthetic data; random when omitted (see stats().seed). */
  seed?: number;
  faults?: Partial<Faults>;
  /** Serves `POST /oauth/token` (client credentials) issuing `token` when set. */
  oauth?: { clientId: string; clientSecret: string; expiresIn?: number };
  /**
   * The platform's OpenAPI description (a file path or an http(s) URL) to play instead of Ferry's
   * assumed interface: its operations at its paths, its security, its request schemas (400 with the
   * details), its bindings; `listing` is then ignored. docs/SIMULATOR.md, "A described platform".
   */
  openapi?: string;
  /** Binding overrides (as `interface.bindings` in Ferry's config): paths and size limits. */
  bindings?: Record<string, BindingConfig>;
  /** Keep each logged request's body text in `requests()` (tests that read what was sent). */
  keepBodies?: boolean;
  /** Idempotency answers kept (oldest dropped first). Default 50,000. */
  idempotencyCapacity?: number;
  /** Orders added per minute while the simulator runs, on top of the seeded set. Default 0. */
  ordersPerMinute?: number;
  /**
   * Now, in epoch ms (default Date.now): the createdAt of added orders, which days are closed
   * (Z-reports, revenue), the rate limit's one-second windows and the request log's times. Tests
   * pass their own to close a day without waiting for midnight, or to keep a burst in one window.
   */
  clock?: () => number;
}

export interface SimStats {
  /** Interface requests received (admin, openapi and oauth calls are not counted). */
  requests: number;
  /** Operation id -> requests routed to it. */
  byOperation: Record<string, number>;
  /** Write requests that were executed and changed state (at least one item applied). */
  applied: number;
  /** Items applied by those writes. */
  appliedItems: number;
  /** Answers replayed for a repeated idempotency key. */
  replayed: number;
  /** Items (or single-entity writes) refused: 400, 404 or 422, per item in a 207. */
  rejected: number;
  /** Writes applied a second time: same idempotency key, or no key and same operation, path and body. */
  duplicates: number;
  rateLimited: number;
  inProgress: number;
  unauthorized: number;
  notFound: number;
  faults: { failed: number; reset: number; appliedThenFailed: number };
  seed: number;
}

/** One interface request as /__sim/requests lists it. */
export interface RequestRecord {
  /** Arrival time, ms since the epoch. */
  at: number;
  operationId: string | null;
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The status answered; 0 when the connection was destroyed without an answer. */
  status: number;
  /** Items in the body (batch writes), 1 for other writes, 0 for reads. */
  items: number;
  /** The body as received, byte for byte (only with the option `keepBodies`). */
  body?: string;
  /** The W3C trace context the request carried (Ferry exporting traces), when it had one. */
  traceparent?: string;
}

/** The description a simulator plays (`openapi`). */
export interface DescribedSummary {
  source: string;
  title: string | undefined;
  version: string | undefined;
  /** The catalog ids of the operations it serves. */
  operations: string[];
}

export interface RunningSimulator {
  readonly url: string;
  readonly port: number;
  /** The listing served; with a description, the one it is (A when it is neither). */
  readonly listing: Listing;
  /** The description played, or undefined for Ferry's assumed interface. */
  readonly described: DescribedSummary | undefined;
  stats(): SimStats;
  /** The items held for a resource (products, categories, stores, users, campaigns, ageGroups,
   * discountCodes, prices, customers, partners, orders); throws for another name. */
  state(resource: string): unknown[];
  /** Adds `count` orders now (as `POST /__sim/orders`); answers their ids, ascending. */
  addOrders(count: number): string[];
  /** The last interface requests (at most `limit`, at most 10,000), oldest first. */
  requests(limit?: number): RequestRecord[];
  /** Back to the state at start: empty state, the seeded orders, stats, idempotency store and log;
   * start faults and token. */
  reset(): void;
  setFaults(partial: Partial<Faults>): Faults;
  faults(): Faults;
  /** Changes the accepted bearer token (and the one /oauth/token issues), e.g. to test a refresh. */
  setToken(token: string): void;
  close(): Promise<void>;
}
