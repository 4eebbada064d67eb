import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOfListing, type Operation } from '../../src/interface/catalog.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { PRODUCTS, call, product } from './sim-http.js';

/** A valid request for every operation; the prices and campaign writes need their entity first. */
function sample(op: Operation): { path: string; body?: unknown } {
  const items: Record<string, unknown[]> = {
    ageGroups: [{ externalId: 'AG1', name: 'Kids', minAge: 0, maxAge: 12, sortIndex: 1 }],
    campaigns: [{ externalId: 'CA1', name: 'Sale', adjustmentType: 'percent', value: '10' }],
    categories: [{ externalId: 'C1', name: 'Shoes', sortIndex: 1 }],
    discountCodes: [{ externalId: 'D1', code: 'SAVE10' }],
    products: [product('P1')],
    stores: [{ externalId: 'S1', name: 'Oslo', email: 'oslo@example.com', active: true }],
    users: [{ externalId: 'U1', firstName: 'A', lastName: 'B', email: 'a@example.com' }],
  };
  switch (op.kind) {
    case 'read':
      return { path: op.path };
    case 'upsert':
    case 'patch':
      return { path: op.path, body: items[op.resource] };
    case 'delete':
      return { path: op.path, body: [{ externalId: 'gone' }] };
    case 'entityWrite':
      return op.id === 'products.prices.patch'
        ? {
            path: `${PRODUCTS}/P1/prices`,
            body: { prices: [{ amount: '1299.00', currency: 'NOK' }] },
          }
        : {
            path: '/external/api/discount-codes/D1/campaign',
            body: { campaignExternalId: 'CA1' },
          };
    default:
      return { path: op.path, body: { name: 'Someone', email: 'someone@example.com' } };
  }
}

/** Upserts before the writes that address what they created. */
const ORDER = ['upsert', 'read', 'patch', 'action', 'entityWrite', 'delete'];

for (const listing of ['A', 'B'] as const) {
  describe(`listing ${listing}`, () => {
    let sim: RunningSimulator;
    beforeAll(async () => {
      sim = await startSimulator({ listing, seed: 1 });
    });
    afterAll(async () => {
      await sim.close();
    });

    it('answers every operation of the listing with a 2xx', async () => {
      const ops = [...operationsOfListing(listing)].sort(
        (a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind),
      );
      for (const op of ops) {
        const { path, body } = sample(op);
        const answer = await call(sim, op.method, path, { body });
        expect([op.id, answer.status]).toEqual([op.id, op.method === 'POST' ? 201 : 200]);
      }
      const stats = sim.stats();
      expect(stats.requests).toBe(ops.length);
      expect(Object.keys(stats.byOperation).sort()).toEqual(ops.map((o) => o.id).sort());
    });

    it('answers 404 NOT_FOUND for the operations of the other listing', async () => {
      const other = listing === 'A' ? 'B' : 'A';
      const missing = operationsOfListing(other).filter((o) => !o.listings.includes(listing));
      expect(missing.length).toBeGreaterThan(0);
      for (const op of missing) {
        const answer = await call(sim, op.method, op.path, { body: {} });
        expect(answer.status).toBe(404);
        expect(answer.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
      }
    });
  });
}

describe('auth and unknown paths', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ token: 'secret-t' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('answers 401 UNAUTHORIZED without a token or with a wrong one, and applies nothing', async () => {
    for (const token of [null, 'wrong', 'secret-t-longer']) {
      const answer = await call(sim, 'PUT', PRODUCTS, { token, body: [product('1')] });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
    expect(sim.state('products')).toEqual([]);
    expect(sim.stats().unauthorized).toBe(3);
    const ok = await call(sim, 'PUT', PRODUCTS, { token: 'secret-t', body: [product('1')] });
    expect(ok.status).toBe(200);
  });

  it('answers 404 for unknown paths and methods, and does not count admin calls', async () => {
    const before = sim.stats().requests;
    expect((await call(sim, 'GET', '/external/api/nothing')).status).toBe(404);
    expect((await call(sim, 'POST', PRODUCTS, { body: [] })).status).toBe(404);
    await call(sim, 'GET', '/__sim/stats');
    await call(sim, 'GET', '/openapi.json');
    expect(sim.stats().requests).toBe(before + 2);
    expect(sim.stats().notFound).toBe(2);
  });
});
