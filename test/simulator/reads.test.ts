import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { PRODUCTS, call, product } from './sim-http.js';

interface Page {
  items: Record<string, unknown>[];
  page: number;
  pageSize: number;
  total: number;
}

let sim: RunningSimulator;
let other: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5 });
  other = await startSimulator({ seed: 6 });
});
afterAll(async () => {
  await Promise.all([sim.close(), other.close()]);
});

async function page(target: RunningSimulator, path: string): Promise<Page> {
  const answer = await call(target, 'GET', path);
  expect(answer.status).toBe(200);
  return answer.body as Page;
}

describe('reads', () => {
  it('pages products from state, 50 per page by default', async () => {
    for (let start = 0; start < 120; start += 60) {
      const batch = Array.from({ length: 60 }, (_, i) => product(String(start + i)));
      await call(sim, 'PUT', PRODUCTS, { body: batch.slice(0, 30) });
      await call(sim, 'PUT', PRODUCTS, { body: batch.slice(30) });
    }
    const first = await page(sim, PRODUCTS);
    expect(first).toMatchObject({ page: 1, pageSize: 50, total: 120 });
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toEqual(product('0'));
    const third = await page(sim, `${PRODUCTS}?page=3&pageSize=50`);
    expect(third.items.map((p) => p.externalId)).toEqual(
      Array.from({ length: 20 }, (_, i) => String(100 + i)),
    );
    expect((await page(sim, `${PRODUCTS}?page=9`)).items).toEqual([]);
  });

  it('pages stores from state', async () => {
    await call(sim, 'PUT', '/external/api/stores', { body: [{ externalId: 's1', name: 'Oslo' }] });
    const stores = await page(sim, '/external/api/stores');
    expect(stores).toEqual({
      items: [{ externalId: 's1', name: 'Oslo' }],
      page: 1,
      pageSize: 50,
      total: 1,
    });
  });

  it('answers products and stores as the writes left them, page by page', async () => {
    const fresh = await startSimulator({ seed: 5 });
    try {
      const STORES = '/external/api/stores';
      const stores = Array.from({ length: 12 }, (_, i) => ({
        externalId: `st-${i}`,
        name: `Store ${i}`,
        address: { street: 'Gate 1', postalCode: '0150', city: 'Oslo', country: 'NO' },
        active: true,
      }));
      expect((await call(fresh, 'PUT', STORES, { body: stores })).status).toBe(200);
      const patch = [{ externalId: 'st-3', name: 'Renamed', active: false }];
      expect((await call(fresh, 'PATCH', STORES, { body: patch })).status).toBe(200);
      expect((await call(fresh, 'DELETE', STORES, { body: [{ externalId: 'st-7' }] })).status).toBe(
        200,
      );
      await call(fresh, 'PUT', PRODUCTS, { body: [product('p1'), product('p2')] });
      await call(fresh, 'PATCH', PRODUCTS, { body: [{ externalId: 'p2', name: 'Edited' }] });

      const read: Record<string, unknown>[] = [];
      for (let n = 1; n <= 3; n++)
        read.push(...(await page(fresh, `${STORES}?page=${n}&pageSize=5`)).items);
      const expected = stores.filter((s) => s.externalId !== 'st-7');
      expected[3] = { ...expected[3]!, name: 'Renamed', active: false };
      // The patched store keeps its place; the deleted one is gone.
      expect(read).toEqual(expected);
      expect(read).toEqual(fresh.state('stores'));
      expect((await page(fresh, `${STORES}?pageSize=5`)).total).toBe(11);
      expect((await page(fresh, `${PRODUCTS}?pageSize=1&page=2`)).items).toEqual([
        product('p2', { name: 'Edited' }),
      ]);
    } finally {
      await fresh.close();
    }
  });

  it('answers 400 for a bad page or pageSize', async () => {
    for (const query of ['page=0', 'page=x', 'pageSize=501', 'pageSize=0', 'pageSize=2.5']) {
      const answer = await call(sim, 'GET', `/external/api/orders?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
    }
  });

  it('serves seeded orders, z-reports, revenue and microshops', async () => {
    for (const path of [
      '/external/api/orders',
      '/external/api/reports/z-report',
      '/external/api/statistics/revenue',
      '/external/api/microshops',
    ]) {
      const whole = await page(sim, `${path}?pageSize=4`);
      expect(whole.total).toBeGreaterThan(4);
      expect(whole.items).toHaveLength(4);
      // Pages are slices of one sequence, and the same seed gives the same data.
      expect((await page(sim, `${path}?page=2&pageSize=2`)).items).toEqual(whole.items.slice(2));
      expect((await page(sim, `${path}?pageSize=4`)).items).toEqual(whole.items);
      expect((await page(other, `${path}?pageSize=4`)).items).not.toEqual(whole.items);
      const last = await page(sim, `${path}?page=${whole.total}&pageSize=1`);
      expect(last.items).toHaveLength(1);
    }
  });

  it('keeps money in synthetic data as decimal strings that add up', async () => {
    const orders = (await page(sim, '/external/api/orders?pageSize=20')).items as {
      total: string;
      lines: { lineTotal: string; unitPrice: string; quantity: number }[];
    }[];
    for (const order of orders) {
      expect(order.total).toMatch(/^\d+\.\d{2}$/);
      const cents = (s: string) => Number(s.replace('.', ''));
      expect(order.lines.reduce((sum, l) => sum + cents(l.lineTotal), 0)).toBe(cents(order.total));
      for (const line of order.lines) {
        expect(cents(line.unitPrice) * line.quantity).toBe(cents(line.lineTotal));
      }
    }
  });

  it('answers the age group code with synthetic data until one is put', async () => {
    const code = await call(other, 'GET', '/external/api/age-group-code');
    expect(code.status).toBe(200);
    expect(code.body).toMatchObject({ code: expect.stringMatching(/^AGC-\d{4}$/) });
  });
});
