/** Everything one running simulator holds, shared by its request handlers. */
import { operationsOfListing, resolveBindings, type Binding } from '../interface/index.js';
import type { Listing } from '../config/index.js';
import type { OAuthClient } from './auth.js';
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
  /** Aborted when the simulator closes: pending latency waits end at once. */
  readonly closing: AbortSignal;
  /** Logged requests keep their body text (`keepBodies`). */
  readonly keepBodies: boolean;
  random: Random;
  faults: Faults;
  rejectKeys: ReadonlySet<string>;
  token: string;
}

export const DEFAULT_TOKEN = 'dev-token';
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
    oauth: options.oauth,
    closing,
    keepBodies: options.keepBodies === true,
    random: mulberry32(seed),
    faults,
    rejectKeys: new Set(faults.rejectKeys),
    token: options.token ?? DEFAULT_TOKEN,
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
  ctx.keylessApplied.clear();
  ctx.stats.reset();
  ctx.limiter.reset();
  ctx.random = mulberry32(ctx.seed);
  ctx.faults = mergeFaults(DEFAULT_FAULTS, options.faults ?? {});
  ctx.rejectKeys = new Set(ctx.faults.rejectKeys);
  ctx.token = options.token ?? DEFAULT_TOKEN;
}
