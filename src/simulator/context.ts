/** Everything one running simulator holds, shared by its request handlers. */
import { operationsOfListing, resolveBindings, type Binding } from '../interface/index.js';
import type { Listing } from '../config/index.js';
import { randomBytes } from 'node:crypto';
import { OAUTH_TOKEN_PATH, type OAuthClient, type ScopedGrant } from './auth.js';
import type { SimCredentials } from './described-auth.js';
import type { DescribedPlatform } from './described-platform.js';
import { DEFAULT_FAULTS, mergeFaults } from './faults.js';
import { IdempotencyStore } from './idempotency.js';
import { OrderArrivals } from './order-arrivals.js';
import { OrderBook } from './order-book.js';
import { mulberry32, type Random } from './prng.js';
import { RateLimiter } from './rate-limiter.js';
import { buildRouter, type Router } from './router.js';
import { SimState } from './state-store.js';
import { SimStatsRecorder } from './stats.js';
import type { Faults, SimulatorOptions } from './types.js';
import { ASSUMED_RULES, DESCRIBED_RULES, type ItemRules } from './validation.js';

export interface SimContext {
  readonly listing: Listing;
  readonly seed: number;
  readonly bindings: Map<string, Binding>;
  readonly router: Router;
  /** The platform's description it plays (`--openapi`); undefined: Ferry's assumed interface. */
  readonly described: DescribedPlatform | undefined;
  /** Ferry's assumed item rules, or none beyond the description's schemas. */
  readonly itemRules: ItemRules;
  readonly state: SimState;
  /** The orders (seeded, then added), with the Z-reports and revenue of their closed days. */
  readonly orders: OrderBook;
  /** `ordersPerMinute`: adds orders to `orders` while the simulator runs. */
  readonly arrivals: OrderArrivals;
  /** Now, in epoch ms: orders' createdAt and which days are closed. */
  readonly clock: () => number;
  readonly idempotency: IdempotencyStore;
  /** Fingerprints of writes applied without an idempotency key (to count duplicates). */
  readonly keylessApplied: Set<string>;
  readonly stats: SimStatsRecorder;
  readonly limiter: RateLimiter;
  /** The idempotency header as configured, e.g. `Idempotency-Key`. */
  readonly idempotencyHeader: string;
  readonly oauth: OAuthClient | undefined;
  /** Where tokens are issued: `/oauth/token`, or the path of the description's tokenUrl. */
  readonly tokenPath: string;
  /** Tokens the described token endpoint issued, with their scopes (emptied by a reset). */
  readonly issued: Map<string, ReadonlySet<string>>;
  /** Aborted when the simulator closes: pending latency waits end at once. */
  readonly closing: AbortSignal;
  /** Logged requests keep their body text (`keepBodies`; always with a description). */
  readonly keepBodies: boolean;
  random: Random;
  faults: Faults;
  rejectKeys: ReadonlySet<string>;
  token: string;
}

export const DEFAULT_TOKEN = 'dev-token';
export const DEFAULT_CLIENT_ID = 'dev-client';
export const DEFAULT_CLIENT_SECRET = 'dev-secret';
export const DEFAULT_IDEMPOTENCY_CAPACITY = 50_000;

export function createContext(
  options: SimulatorOptions,
  closing: AbortSignal,
  described?: DescribedPlatform,
): SimContext {
  const seed = (options.seed ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;
  const listing = (described ? described.listing : options.listing) ?? 'A';
  const bindings = resolveBindings(options.bindings, described?.bindings);
  const faults = mergeFaults(DEFAULT_FAULTS, options.faults ?? {});
  const clock = options.clock ?? Date.now;
  const orders = new OrderBook(seed, clock);
  return {
    listing,
    seed,
    bindings,
    router: buildRouter(described?.operations ?? operationsOfListing(listing), bindings),
    described,
    itemRules: described ? DESCRIBED_RULES : ASSUMED_RULES,
    state: new SimState(),
    orders,
    arrivals: new OrderArrivals(options.ordersPerMinute ?? 0, (count) => orders.add(count)),
    clock,
    idempotency: new IdempotencyStore(options.idempotencyCapacity ?? DEFAULT_IDEMPOTENCY_CAPACITY),
    keylessApplied: new Set(),
    stats: new SimStatsRecorder(seed),
    limiter: new RateLimiter(),
    idempotencyHeader: options.idempotencyHeader ?? 'Idempotency-Key',
    // A description with a client-credentials flow has its token endpoint, with dev credentials.
    oauth:
      options.oauth ??
      (described?.tokenEndpoint
        ? { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET }
        : undefined),
    tokenPath: described?.tokenEndpoint?.path ?? OAUTH_TOKEN_PATH,
    issued: new Map(),
    closing,
    keepBodies: options.keepBodies ?? described !== undefined,
    random: mulberry32(seed),
    faults,
    rejectKeys: new Set(faults.rejectKeys),
    token: options.token ?? DEFAULT_TOKEN,
  };
}

/** What the described security checks credentials against (described-auth.ts). */
export function credentialsOf(ctx: SimContext): SimCredentials {
  return { token: ctx.token, issuedScopes: (token) => ctx.issued.get(token) };
}

/**
 * The described token endpoint's grant: a token of its own per request, carrying the scopes asked
 * when the description declares every one of them.
 */
export function scopedGrant(ctx: SimContext): ScopedGrant | undefined {
  const endpoint = ctx.described?.tokenEndpoint;
  if (!endpoint) return undefined;
  return (asked) => {
    if (!asked.every((s) => endpoint.scopes.has(s))) return undefined;
    const token = `${ctx.token}.${randomBytes(9).toString('base64url')}`;
    ctx.issued.set(token, new Set(asked));
    return { token, scope: asked.join(' ') };
  };
}

export function applyFaults(ctx: SimContext, patch: unknown): Faults {
  ctx.faults = mergeFaults(ctx.faults, patch);
  ctx.rejectKeys = new Set(ctx.faults.rejectKeys);
  return ctx.faults;
}

/**
 * Back to the start: empty state and stats, the seeded orders (arrivals count again from now), a
 * fresh PRNG, the start faults and token.
 */
export function resetContext(ctx: SimContext, options: SimulatorOptions): void {
  ctx.state.reset();
  ctx.orders.reset();
  ctx.arrivals.start();
  ctx.idempotency.clear();
  ctx.issued.clear();
  ctx.keylessApplied.clear();
  ctx.stats.reset();
  ctx.limiter.reset();
  ctx.random = mulberry32(ctx.seed);
  ctx.faults = mergeFaults(DEFAULT_FAULTS, options.faults ?? {});
  ctx.rejectKeys = new Set(ctx.faults.rejectKeys);
  ctx.token = options.token ?? DEFAULT_TOKEN;
}
