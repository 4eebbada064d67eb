import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { call } from './sim-http.js';

const Z_REPORTS = '/external/api/reports/z-report';
const REVENUE = '/external/api/statistics/revenue';

interface Order {
  createdAt: string;
  storeExternalId: string;
  status: string;
  total: string;
}
interface ZReport {
  externalId: string;
  date: string;
  storeExternalId: string;
  receipts: number;
  grossSales: string;
  vat: string;
  netSales: string;
  currency: string;
}
interface RevenueDay {
  date: string;
  orders: number;
  revenue: string;
  currency: string;
}

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

const ore = (s: string) => Number(s.replace('.', ''));
const money = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, '0')}`;

/** Every item of a read, page by page. */
async function all<T>(sim: RunningSimulator, path: string, query = ''): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(sim, 'GET', `${path}?pageSize=7&page=${page}${query}`);
    expect(answer.status).toBe(200);
    const body = answer.body as { items: T[]; total: number };
    items.push(...body.items);
    if (body.items.length < 7) {
      expect(items).toHaveLength(body.total);
      return items;
    }
  }
}

/** The Z-reports the orders held imply for the days before `today` (cancelled ones not counted). */
function expectedZReports(orders: Order[], today: string) {
  const byKey = new Map<string, { date: string; store: string; receipts: number; gross: number }>();
  for (const o of orders) {
    const date = o.createdAt.slice(0, 10);
    if (o.status === 'cancelled' || date >= today) continue;
    const key = `${date} ${o.storeExternalId}`;
    const entry = byKey.get(key) ?? { date, store: o.storeExternalId, receipts: 0, gross: 0 };
    entry.receipts += 1;
    entry.gross += ore(o.total);
    byKey.set(key, entry);
  }
  return [...byKey.keys()].sort().map((key) => {
    const { date, store, receipts, gross } = byKey.get(key)!;
    return { externalId: `Z-${date}-${store}`, date, storeExternalId: store, receipts, gross };
  });
}

describe('Z-reports and revenue', () => {
  it('report each closed day from the orders held, and a day once it has closed', async () => {
    let now = Date.UTC(2024, 1, 10, 12);
    const sim = await startSimulator({ seed: 3, clock: () => now });
    running.push(sim);
    sim.addOrders(40); // today, 2024-02-10: not closed yet
    const before = await all<ZReport>(sim, Z_REPORTS);
    const expected = expectedZReports(sim.state('orders') as Order[], '2024-02-10');
    expect(before.length).toBeGreaterThan(30);
    expect(
      before.map(({ externalId, date, storeExternalId, receipts }) => ({
        externalId,
        date,
        storeExternalId,
        receipts,
      })),
    ).toEqual(expected.map(({ gross: _, ...rest }) => rest));
    for (const [i, report] of before.entries()) {
      expect(ore(report.grossSales)).toBe(expected[i]!.gross);
      expect(ore(report.vat) + ore(report.netSales)).toBe(ore(report.grossSales));
      expect(report.vat).toBe(money(Math.round(ore(report.grossSales) / 5)));
      expect(report.currency).toBe('NOK');
    }
    expect(before.some((r) => r.date === '2024-02-10')).toBe(false);

    // Revenue per day = the sum of that day's Z-reports.
    const revenue = await all<RevenueDay>(sim, REVENUE);
    const days = [...new Set(before.map((r) => r.date))];
    expect(revenue.map((d) => d.date)).toEqual(days);
    for (const day of revenue) {
      const reports = before.filter((r) => r.date === day.date);
      expect(day.orders).toBe(reports.reduce((n, r) => n + r.receipts, 0));
      expect(ore(day.revenue)).toBe(reports.reduce((n, r) => n + ore(r.grossSales), 0));
    }

    // Past midnight the day closes: its reports append at the end, the earlier ones unchanged.
    now = Date.UTC(2024, 1, 11, 0, 0, 1);
    sim.addOrders(5); // 2024-02-11, open
    const after = await all<ZReport>(sim, Z_REPORTS);
    expect(after.slice(0, before.length)).toEqual(before);
    const closed = after.slice(before.length);
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((r) => r.date === '2024-02-10')).toBe(true);
    expect(closed.reduce((n, r) => n + r.receipts, 0)).toBe(
      (sim.state('orders') as Order[]).filter(
        (o) => o.createdAt.startsWith('2024-02-10') && o.status !== 'cancelled',
      ).length,
    );
    expect((await all<RevenueDay>(sim, REVENUE)).at(-1)!.date).toBe('2024-02-10');
  });

  it('filter by from and to (inclusive days) and refuse a bad day', async () => {
    const sim = await startSimulator({ seed: 3 });
    running.push(sim);
    const week = await all<ZReport>(sim, Z_REPORTS, '&from=2024-01-05&to=2024-01-11');
    expect(new Set(week.map((r) => r.date))).toEqual(
      new Set(['05', '06', '07', '08', '09', '10', '11'].map((d) => `2024-01-${d}`)),
    );
    const revenue = await all<RevenueDay>(sim, REVENUE, '&from=2024-01-30');
    expect(revenue.map((d) => d.date)).toEqual(['2024-01-30']);
    expect(await all(sim, REVENUE, '&to=2023-12-31')).toEqual([]);
    for (const query of ['from=2024-02-30', 'to=20240101', 'sinceId=3', 'date=2024-01-01']) {
      const answer = await call(sim, 'GET', `${Z_REPORTS}?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(answer.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });
});
