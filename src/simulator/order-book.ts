/**
 * The orders the simulator holds: the seeded initial set, then the ones added by
 * `POST /__sim/orders` or `--orders-per-minute`. Ids are sequence numbers (1, 2, ...) zero-padded
 * to ten digits, and createdAt never decreases with the id, so sorting by id, by time or by
 * arrival is the same order and a new order only ever appends at the end: offset paging and the
 * `sinceId` / `createdAfter` filters stay stable while orders arrive. Orders are never changed.
 */
import { DailyTotals } from './daily-totals.js';
import { syntheticOrder, type Order } from './synthetic.js';

export const SEEDED_ORDERS = 240;

/** What a read selects: orders with sequence > afterSequence and createdAt in (after, before). */
export interface OrderFilter {
  afterSequence?: number;
  createdAfterMs?: number;
  createdBeforeMs?: number;
}

/** The first index in [lo, hi) whose value passes `test` (`test` false then true along the range). */
function firstIndex(lo: number, hi: number, test: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export class OrderBook {
  /** Index i holds the order with sequence i + 1. */
  private readonly orders: Order[] = [];
  private readonly times: number[] = [];
  readonly daily = new DailyTotals();

  constructor(
    private readonly seed: number,
    private readonly clock: () => number,
  ) {
    this.reset();
  }

  /** Back to the seeded set. */
  reset(): void {
    this.orders.length = 0;
    this.times.length = 0;
    this.daily.clear();
    for (let i = 0; i < SEEDED_ORDERS; i++) this.append(syntheticOrder(this.seed, i));
  }

  private append(order: Order): void {
    this.orders.push(order);
    this.times.push(Date.parse(order.createdAt));
    this.daily.add(order);
  }

  /** Adds `count` orders created now (never before the newest order); answers their ids. */
  add(count: number): string[] {
    const ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const at = Math.max(this.clock(), this.times.at(-1) ?? 0);
      const order = syntheticOrder(this.seed, this.orders.length, at);
      this.append(order);
      ids.push(order.id);
    }
    return ids;
  }

  get size(): number {
    return this.orders.length;
  }

  /** Copies of every order, by id. */
  all(): Order[] {
    return structuredClone(this.orders);
  }

  /** The orders passing `filter`, by id ascending: `total` of them, `limit` from `offset`. */
  select(filter: OrderFilter, offset: number, limit: number): { items: Order[]; total: number } {
    const { afterSequence = 0, createdAfterMs, createdBeforeMs } = filter;
    const size = this.orders.length;
    let start = Math.min(afterSequence, size);
    if (createdAfterMs !== undefined) {
      start = firstIndex(start, size, (i) => this.times[i]! > createdAfterMs);
    }
    let end = size;
    if (createdBeforeMs !== undefined) {
      end = firstIndex(start, size, (i) => this.times[i]! >= createdBeforeMs);
    }
    const from = Math.min(start + offset, end);
    const items = structuredClone(this.orders.slice(from, Math.min(from + limit, end)));
    return { items, total: end - start };
  }
}
