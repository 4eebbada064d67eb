/**
 * Z-reports and revenue per day, kept up to date as orders are added (never recomputed from the
 * orders on a read). A day is a UTC calendar day of the orders' createdAt; it is closed once the
 * simulator's clock has passed its end (UTC midnight), and only closed days are reported. Orders
 * are never created before the clock, so a closed day never changes and days close in date order:
 * new reports only ever append at the end. Cancelled orders are not counted.
 */
import { money, ore, type Order } from './synthetic.js';

interface StoreDay {
  receipts: number;
  grossOre: number;
}

export interface ZReport {
  externalId: string;
  date: string;
  storeExternalId: string;
  receipts: number;
  grossSales: string;
  vat: string;
  netSales: string;
  currency: string;
}

export interface RevenueDay {
  date: string;
  orders: number;
  revenue: string;
  currency: string;
}

const CURRENCY = 'NOK';

/** The UTC day of an epoch ms, `YYYY-MM-DD`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class DailyTotals {
  /** Day -> store -> totals; days in the order they were first seen, which is date order. */
  private readonly days = new Map<string, Map<string, StoreDay>>();

  clear(): void {
    this.days.clear();
  }

  add(order: Order): void {
    if (order.status === 'cancelled') return;
    const date = order.createdAt.slice(0, 10);
    let stores = this.days.get(date);
    if (!stores) this.days.set(date, (stores = new Map()));
    const totals = stores.get(order.storeExternalId) ?? { receipts: 0, grossOre: 0 };
    totals.receipts += 1;
    totals.grossOre += ore(order.total);
    stores.set(order.storeExternalId, totals);
  }

  /** Closed days (before `today`) within [from, to] (inclusive, `YYYY-MM-DD`), in date order. */
  private *closedDays(today: string, from: string | undefined, to: string | undefined) {
    for (const [date, stores] of this.days) {
      if (date >= today || (to !== undefined && date > to)) return;
      if (from !== undefined && date < from) continue;
      yield [date, stores] as const;
    }
  }

  /** One Z-report per closed day and store with at least one counted order, by date then store. */
  zReports(today: string, from?: string, to?: string): ZReport[] {
    const reports: ZReport[] = [];
    for (const [date, stores] of this.closedDays(today, from, to)) {
      for (const store of [...stores.keys()].sort()) {
        const { receipts, grossOre } = stores.get(store)!;
        // Prices include 25% VAT: the VAT is a fifth of the gross.
        const vatOre = Math.round(grossOre / 5);
        reports.push({
          externalId: `Z-${date}-${store}`,
          date,
          storeExternalId: store,
          receipts,
          grossSales: money(grossOre),
          vat: money(vatOre),
          netSales: money(grossOre - vatOre),
          currency: CURRENCY,
        });
      }
    }
    return reports;
  }

  /** Revenue per closed day with at least one counted order, in date order. */
  revenue(today: string, from?: string, to?: string): RevenueDay[] {
    const days: RevenueDay[] = [];
    for (const [date, stores] of this.closedDays(today, from, to)) {
      let orders = 0;
      let grossOre = 0;
      for (const totals of stores.values()) {
        orders += totals.receipts;
        grossOre += totals.grossOre;
      }
      days.push({ date, orders, revenue: money(grossOre), currency: CURRENCY });
    }
    return days;
  }
}
