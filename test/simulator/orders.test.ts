import { request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import type { SimulatorOptions } from '../../src/simulator/types.js';
import { call } from './sim-http.js';

const ORDERS = '/external/api/orders';
const SEEDED = 240;

interface Order {
  id: string;
  externalId: string;
  createdAt: string;
  storeExternalId: string;
  customer: { externalId: string; name: string; email: string };
  status: string;
  currency: string;
  lines: { productExternalId: string; quantity: number; unitPrice: string; lineTotal: string }[];
  total: string;
}
interface Page {
  items: Order[];
  page: number;
  pageSize: number;
  total: number;
}

const running: RunningSimulator[] = [];
async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const sim = await startSimulator({ seed: 11, ...options });
  running.push(sim);
  return sim;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function admin(sim: RunningSimulator, method: string, path: string, body?: unknown) {
  const res = await request(`${sim.url}/__sim/${path}`, {
    method: method as 'GET',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as unknown };
}

async function page(sim: RunningSimulator, query: string): Promise<Page> {
  const answer = await call(sim, 'GET', `${ORDERS}?${query}`);
  expect([query, answer.status]).toEqual([query, 200]);
  return answer.body as Page;
}

const seq = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => String(from + i).padStart(10, '0'));

describe('orders', () => {
  it('holds the seeded orders, the same for the same seed, each with an id and its lines', async () => {
    const sim = await start();
    const other = await start({ seed: 12 });
    const held = (await admin(sim, 'GET', 'state/orders')).body as Order[];
    expect(held.map((o) => o.id)).toEqual(seq(1, SEEDED));
    expect((await start()).state('orders')).toEqual(held);
    expect(other.state('orders')).not.toEqual(held);
    const cents = (s: string) => Number(s.replace('.', ''));
    for (const order of held) {
      expect(order).toMatchObject({
        externalId: `ORD-${order.id}`,
        currency: 'NOK',
        storeExternalId: expect.stringMatching(/^S\d{3}$/),
        customer: { externalId: expect.stringMatching(/^CUST-\d{4}$/), name: expect.any(String) },
      });
      expect(order.total).toMatch(/^\d+\.\d{2}$/);
      expect(order.lines.reduce((sum, l) => sum + cents(l.lineTotal), 0)).toBe(cents(order.total));
      for (const line of order.lines) {
        expect(line.unitPrice).toMatch(/^\d+\.\d{2}$/);
        expect(cents(line.unitPrice) * line.quantity).toBe(cents(line.lineTotal));
      }
    }
    // createdAt never decreases with the id.
    const times = held.map((o) => Date.parse(o.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('POST /__sim/orders adds orders now and answers their ids; reset goes back to the seed', async () => {
    const now = Date.UTC(2025, 5, 1, 12);
    const sim = await start({ clock: () => now });
    const added = await admin(sim, 'POST', 'orders', { count: 3 });
    expect(added).toEqual({ status: 201, body: { ids: seq(SEEDED + 1, 3) } });
    expect((await admin(sim, 'POST', 'orders', { count: 2 })).body).toEqual({
      ids: seq(SEEDED + 4, 2),
    });
    const held = sim.state('orders') as Order[];
    expect(held).toHaveLength(SEEDED + 5);
    expect(held.at(-1)).toMatchObject({
      id: seq(SEEDED + 5, 1)[0],
      createdAt: new Date(now).toISOString(),
    });
    expect((await page(sim, 'pageSize=5&sinceId=240')).items).toEqual(held.slice(SEEDED));

    for (const bad of [
      {},
      { count: 0 },
      { count: 1.5 },
      { count: '3' },
      { count: 100_001 },
      null,
    ]) {
      const answer = await admin(sim, 'POST', 'orders', bad);
      expect([bad, answer.status]).toEqual([bad, 400]);
      expect(answer.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    expect(sim.state('orders')).toHaveLength(SEEDED + 5);

    expect((await admin(sim, 'POST', 'reset')).status).toBe(200);
    expect((sim.state('orders') as Order[]).map((o) => o.id)).toEqual(seq(1, SEEDED));
    // Ids start again after the seeded ones, with the same contents as before (seeded by position).
    expect(sim.addOrders(1)).toEqual(seq(SEEDED + 1, 1));
    expect((sim.state('orders') as Order[])[SEEDED]).toEqual(held[SEEDED]);
  });

  it('keeps adding orders at --orders-per-minute, with ids that only grow', async () => {
    const sim = await start({ ordersPerMinute: 60_000 });
    await vi.waitUntil(() => sim.state('orders').length >= SEEDED + 30, {
      timeout: 20_000,
      interval: 50,
    });
    const ids = (sim.state('orders') as Order[]).map((o) => o.id);
    expect(ids).toEqual(seq(1, ids.length));
    // Reset goes back to the seeded set, and orders keep arriving after it.
    sim.reset();
    expect(sim.state('orders').length).toBeLessThan(SEEDED + 30);
    await vi.waitUntil(() => sim.state('orders').length > SEEDED, {
      timeout: 20_000,
      interval: 50,
    });
  });

  it('pages by id ascending: pages neither skip nor repeat an order while orders arrive', async () => {
    const sim = await start({ ordersPerMinute: 30_000 });
    const seen: string[] = [];
    // Offset paging: new orders only append at the end, so page n stays page n.
    for (let n = 1; ; n++) {
      const { items, pageSize } = await page(sim, `page=${n}&pageSize=37`);
      seen.push(...items.map((o) => o.id));
      sim.addOrders(5);
      if (items.length < pageSize) break;
    }
    expect(seen).toEqual(seq(1, seen.length));
    expect(seen.length).toBeGreaterThan(SEEDED);

    // Cursor paging: the newest id read is the next sinceId.
    const resumed: string[] = [];
    let since = '0';
    for (;;) {
      const { items } = await page(sim, `sinceId=${since}&pageSize=50`);
      if (items.length === 0) break;
      resumed.push(...items.map((o) => o.id));
      since = items.at(-1)!.id;
      if (resumed.length < 400) sim.addOrders(7);
      else break;
    }
    expect(resumed).toEqual(seq(1, resumed.length));
  });

  it('filters by sinceId, createdAfter and createdBefore, total counting the matches', async () => {
    const sim = await start();
    const held = sim.state('orders') as Order[];
    const after = await page(sim, 'sinceId=0000000200&pageSize=500');
    expect(after.total).toBe(SEEDED - 200);
    expect(after.items).toEqual(held.slice(200));
    expect((await page(sim, 'sinceId=200&pageSize=500')).items).toEqual(held.slice(200));
    expect((await page(sim, `sinceId=${SEEDED}`)).items).toEqual([]);

    const t = held[99]!.createdAt;
    const window = await page(
      sim,
      `createdAfter=${t}&createdBefore=${held[120]!.createdAt}&pageSize=500`,
    );
    expect(window.items.map((o) => o.id)).toEqual(held.slice(100, 120).map((o) => o.id));
    expect(window.total).toBe(20);
    const byDay = await page(sim, 'createdAfter=2024-01-02&createdBefore=2024-01-03&pageSize=500');
    expect(byDay.items.length).toBeGreaterThan(0);
    expect(byDay.items.every((o) => o.createdAt.startsWith('2024-01-02'))).toBe(true);
    expect((await page(sim, 'createdAfter=2024-01-02&sinceId=30&page=2&pageSize=3')).items).toEqual(
      held.slice(33, 36),
    );
  });

  it('answers 400 naming a bad or unknown query parameter', async () => {
    const sim = await start();
    for (const [query, named] of [
      ['sinceId=abc', 'sinceId'],
      ['createdAfter=yesterday', 'createdAfter'],
      ['createdBefore=2024-13-01', 'createdBefore'],
      ['since_id=5', 'since_id'],
      ['from=2024-01-01', 'from'],
    ]) {
      const answer = await call(sim, 'GET', `${ORDERS}?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect((answer.body as { error: { message: string } }).error.message).toContain(named);
    }
  });
});
