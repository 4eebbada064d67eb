/** Every operation of listing A and of listing B, through Ferry's client, against the simulator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationsOfListing } from '../../src/interface/catalog.js';
import { type Listing } from '../../src/config/listings.js';
import { createInterfaceClient } from '../../src/interface/client.js';
import type {
  CallRequest,
  CallResponse,
  InterfaceClient,
} from '../../src/interface/client-types.js';
import { AuthError } from '../../src/interface/errors.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { interfaceConfig, rejection } from './client-test-server.js';

const TOKEN = 'sim-token-abc';

/**
 * One call per operation, in an order where each write finds what it needs: categories before the
 * products that name them, a product before its prices, a discount code and a campaign before the
 * code's campaign, and the deletes last. Operations outside a listing are skipped there.
 */
const STEPS: CallRequest[] = [
  { operationId: 'categories.put', body: [{ externalId: 'cat-1', name: 'Bikes', sortIndex: 1 }] },
  { operationId: 'categories.patch', body: [{ externalId: 'cat-1', name: 'Cycles' }] },
  {
    operationId: 'products.put',
    body: [
      {
        externalId: 'p-1',
        name: 'Road bike',
        vendor: 'Acme',
        handle: 'road-bike',
        active: true,
        categoryExternalIds: ['cat-1'],
      },
    ],
  },
  { operationId: 'products.patch', body: [{ externalId: 'p-1', name: 'Road bike 2' }] },
  {
    operationId: 'products.prices.patch',
    pathParams: { productId: 'p-1' },
    body: { prices: [{ amount: '1299.00', currency: 'NOK' }] },
  },
  { operationId: 'products.get', query: { page: '1', pageSize: '10' } },
  {
    operationId: 'campaigns.put',
    body: [{ externalId: 'camp-1', name: 'Summer', adjustmentType: 'percent', value: '10' }],
  },
  { operationId: 'campaigns.patch', body: [{ externalId: 'camp-1', value: '15' }] },
  { operationId: 'discountCodes.put', body: [{ externalId: 'SUMMER', code: 'SUMMER' }] },
  {
    operationId: 'discountCodes.campaign.put',
    pathParams: { discountCodeExternalId: 'SUMMER' },
    body: { campaignExternalId: 'camp-1' },
  },
  {
    operationId: 'ageGroups.put',
    body: [{ externalId: 'ag-1', name: 'Teens', minAge: 13, maxAge: 19, sortIndex: 1 }],
  },
  { operationId: 'ageGroups.patch', body: [{ externalId: 'ag-1', maxAge: 18 }] },
  { operationId: 'ageGroupCode.put', body: { code: 'AGE-2025' } },
  { operationId: 'ageGroupCode.get' },
  {
    operationId: 'stores.put',
    body: [
      {
        externalId: 's-1',
        name: 'Oslo',
        address: { street: 'Karl Johans gate 1', postalCode: '0154', city: 'Oslo', country: 'NO' },
        email: 'oslo@example.com',
        active: true,
      },
    ],
  },
  { operationId: 'stores.patch', body: [{ externalId: 's-1', phone: '+47 22 00 00 00' }] },
  { operationId: 'stores.get' },
  {
    operationId: 'users.put',
    body: [
      {
        externalId: 'u-1',
        firstName: 'Kari',
        lastName: 'Nordmann',
        email: 'kari@example.com',
        role: 'staff',
        storeExternalIds: ['s-1'],
        active: true,
      },
    ],
  },
  { operationId: 'users.patch', body: [{ externalId: 'u-1', role: 'manager' }] },
  {
    operationId: 'customers.details.post',
    body: { externalId: 'cust-1', email: 'ola@example.com', firstName: 'Ola' },
  },
  {
    operationId: 'partner.signup.post',
    body: { name: 'Partner AS', email: 'partner@example.com' },
  },
  { operationId: 'microshops.get' },
  { operationId: 'orders.get', query: { page: '2', pageSize: '5' } },
  { operationId: 'reports.zReport.get' },
  { operationId: 'statistics.revenue.get' },
  { operationId: 'users.delete', body: [{ externalId: 'u-1' }] },
  { operationId: 'stores.delete', body: [{ externalId: 's-1' }] },
  { operationId: 'products.delete', body: [{ externalId: 'p-1' }] },
  { operationId: 'campaigns.delete', body: [{ externalId: 'camp-1' }] },
  { operationId: 'categories.delete', body: [{ externalId: 'cat-1' }] },
  { operationId: 'ageGroups.delete', body: [{ externalId: 'ag-1' }] },
];

/** Per-item results of a batch answer, when it has them. */
function itemStatuses(res: CallResponse): number[] {
  const results = (res.body as { results?: { status: number }[] } | null)?.results;
  return Array.isArray(results) ? results.map((r) => r.status) : [];
}

describe.each<Listing>(['A', 'B'])('listing %s against the simulator', (listing) => {
  let sim: RunningSimulator;
  let client: InterfaceClient;
  const ids = new Set(operationsOfListing(listing).map((o) => o.id));
  const steps = STEPS.filter((s) => ids.has(s.operationId));
  const answers = new Map<string, CallResponse>();

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, listing, token: TOKEN, seed: 7 });
    client = createInterfaceClient(
      interfaceConfig({ baseUrl: sim.url, listing, auth: { type: 'bearer', token: TOKEN } }),
    );
  });
  afterAll(async () => {
    await client.close();
    await sim.close();
  });

  it('the steps cover every operation of the listing', () => {
    expect(new Set(steps.map((s) => s.operationId))).toEqual(ids);
  });

  it('every operation succeeds with a valid token', async () => {
    for (const step of steps) {
      const res = await client.call(step);
      answers.set(step.operationId, res);
      expect.soft(res.status, step.operationId).toBeGreaterThanOrEqual(200);
      expect.soft(res.status, step.operationId).toBeLessThan(300);
      for (const status of itemStatuses(res)) expect.soft(status, step.operationId).toBe(200);
    }
    const stats = sim.stats();
    expect(Object.keys(stats.byOperation).sort()).toEqual([...ids].sort());
    expect(stats.rejected).toBe(0);
  });

  it('the writes reached the simulator state', () => {
    // Deleting the product dropped its prices; the prices write answered what it stored.
    expect(answers.get('products.prices.patch')?.body).toEqual({
      productId: 'p-1',
      prices: [{ amount: '1299.00', currency: 'NOK' }],
    });
    expect(sim.state('discountCodes')).toEqual([
      { externalId: 'SUMMER', code: 'SUMMER', campaignExternalId: 'camp-1' },
    ]);
    expect(sim.state('products')).toEqual([]); // deleted by the last steps
  });

  it('a wrong token is an AuthError naming the 401', async () => {
    const wrong = createInterfaceClient(
      interfaceConfig({ baseUrl: sim.url, listing, auth: { type: 'bearer', token: 'nope-123' } }),
    );
    try {
      const error = await rejection(wrong.call({ operationId: 'orders.get' }));
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).status).toBe(401);
      expect(error.message).toContain('401');
      expect((error as AuthError).context.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    } finally {
      await wrong.close();
    }
  });
});
