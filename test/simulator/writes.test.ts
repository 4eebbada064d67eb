import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { PRODUCTS, call, product } from './sim-http.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ seed: 2, faults: { rejectKeys: ['BAD', 'BADP'] } });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

const prices = (amount: unknown) => ({ prices: [{ amount, currency: 'NOK' }] });

describe('collection writes', () => {
  it('upserts full items by externalId, patches fields and deletes by body or query', async () => {
    const put = await call(sim, 'PUT', PRODUCTS, { body: [product('1'), product('2')] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      results: [
        { externalId: '1', status: 200 },
        { externalId: '2', status: 200 },
      ],
    });
    const replaced = await call(sim, 'PUT', PRODUCTS, { body: [{ externalId: '1', name: 'New' }] });
    expect(replaced.status).toBe(200);
    const patch = await call(sim, 'PATCH', PRODUCTS, {
      body: [{ externalId: '2', active: false }],
    });
    expect(patch.status).toBe(200);
    expect(sim.state('products')).toEqual([
      { externalId: '1', name: 'New' },
      { ...product('2'), active: false },
    ]);
    const del = await call(sim, 'DELETE', PRODUCTS, {
      body: [{ externalId: '1' }, { externalId: 'never' }],
    });
    expect(del.status).toBe(200);
    const byQuery = await call(sim, 'DELETE', `${PRODUCTS}?externalId=2&externalId=3`);
    expect(byQuery.status).toBe(200);
    expect(byQuery.body).toMatchObject({ results: [{ externalId: '2' }, { externalId: '3' }] });
    expect(sim.state('products')).toEqual([]);
    expect(sim.stats().applied).toBe(5);
  });

  it('answers 207 with a status per item and applies the valid ones', async () => {
    const answer = await call(sim, 'PUT', '/external/api/users', {
      body: [
        { externalId: 'u1', email: 'a@example.com' },
        { email: 'b@example.com' },
        { externalId: 7, email: 'c@example.com' },
        { externalId: 'u4', email: 'no-at-sign' },
        'not an object',
        { externalId: 'BAD', email: 'd@example.com' },
      ],
    });
    expect(answer.status).toBe(207);
    const results = (answer.body as { results: Record<string, unknown>[] }).results;
    expect(results.map((r) => [r.externalId, r.status])).toEqual([
      ['u1', 200],
      [null, 422],
      [null, 422],
      ['u4', 422],
      [null, 422],
      ['BAD', 422],
    ]);
    expect(results[1]).toMatchObject({ index: 1, error: { code: 'VALIDATION_FAILED' } });
    expect(results[3]).toMatchObject({ error: { message: expect.stringContaining('@') } });
    expect(results[5]).toMatchObject({ error: { code: 'REJECTED' } });
    expect(sim.state('users')).toEqual([{ externalId: 'u1', email: 'a@example.com' }]);
    expect(sim.stats()).toMatchObject({ applied: 1, appliedItems: 1, rejected: 5 });
  });

  it('answers 207 with per-item 404 for a patch of an unknown item', async () => {
    await call(sim, 'PUT', '/external/api/stores', { body: [{ externalId: 's1', name: 'A' }] });
    const answer = await call(sim, 'PATCH', '/external/api/stores', {
      body: [
        { externalId: 's1', name: 'B' },
        { externalId: 's2', name: 'C' },
      ],
    });
    expect(answer.status).toBe(207);
    expect(answer.body).toMatchObject({
      results: [
        { externalId: 's1', status: 200 },
        { externalId: 's2', status: 404, error: { code: 'NOT_FOUND' } },
      ],
    });
  });

  it('answers 400 for a body of the wrong shape, and 413 past maxItems', async () => {
    for (const body of [{ externalId: '1' }, 'text', 12]) {
      const answer = await call(sim, 'PUT', PRODUCTS, { body });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    expect(
      (
        await call(sim, 'PUT', PRODUCTS, {
          raw: '[{"externalId":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    expect((await call(sim, 'DELETE', PRODUCTS)).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => product(String(i)));
    const tooMany = await call(sim, 'PUT', PRODUCTS, { body: many });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(sim.state('products')).toEqual([]);
  });
});

describe('products.prices.patch', () => {
  it('stores prices of an existing product, amounts as decimal strings', async () => {
    await call(sim, 'PUT', PRODUCTS, { body: [product('079380')] });
    const answer = await call(sim, 'PATCH', `${PRODUCTS}/079380/prices`, {
      body: prices('1299.00'),
    });
    expect(answer.status).toBe(200);
    expect(sim.state('prices')).toEqual([{ productId: '079380', ...prices('1299.00') }]);
  });

  it('refuses a negative, numeric or non-decimal amount with 422 and an unknown product with 404', async () => {
    await call(sim, 'PUT', PRODUCTS, { body: [product('1')] });
    for (const amount of ['-5.00', 1299, '12,50', '1.2.3', '']) {
      const answer = await call(sim, 'PATCH', `${PRODUCTS}/1/prices`, { body: prices(amount) });
      expect([amount, answer.status]).toEqual([amount, 422]);
      expect(answer.body).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    const unknown = await call(sim, 'PATCH', `${PRODUCTS}/nope/prices`, { body: prices('1.00') });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await call(sim, 'PATCH', `${PRODUCTS}/1/prices`, { body: [] })).status).toBe(400);
    expect(
      (await call(sim, 'PATCH', `${PRODUCTS}/1/prices`, { body: { prices: 'x' } })).status,
    ).toBe(400);
    expect(sim.state('prices')).toEqual([]);
  });

  it('refuses writes whose productId is a reject key with 422 REJECTED', async () => {
    await call(sim, 'PUT', PRODUCTS, { body: [product('OK')] });
    const answer = await call(sim, 'PATCH', `${PRODUCTS}/BADP/prices`, { body: prices('1.00') });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: { code: 'REJECTED' } });
    sim.setFaults({ rejectKeys: [] });
    await call(sim, 'PUT', PRODUCTS, { body: [product('BADP')] });
    expect(
      (await call(sim, 'PATCH', `${PRODUCTS}/BADP/prices`, { body: prices('1.00') })).status,
    ).toBe(200);
  });

  it('drops a product’s prices when the product is deleted', async () => {
    await call(sim, 'PUT', PRODUCTS, { body: [product('1')] });
    await call(sim, 'PATCH', `${PRODUCTS}/1/prices`, { body: prices('2.00') });
    await call(sim, 'DELETE', PRODUCTS, { body: [{ externalId: '1' }] });
    expect(sim.state('prices')).toEqual([]);
  });
});

describe('entity writes and actions', () => {
  it('sets a discount code’s campaign, 404 for an unknown code', async () => {
    await call(sim, 'PUT', '/external/api/discount-codes', {
      body: [{ externalId: 'D 1', code: 'X' }],
    });
    const path = `/external/api/discount-codes/${encodeURIComponent('D 1')}/campaign`;
    const ok = await call(sim, 'PUT', path, { body: { campaignExternalId: 'CA1' } });
    expect(ok.status).toBe(200);
    expect(sim.state('discountCodes')).toEqual([
      { externalId: 'D 1', code: 'X', campaignExternalId: 'CA1' },
    ]);
    const missing = await call(sim, 'PUT', '/external/api/discount-codes/none/campaign', {
      body: { campaignExternalId: 'CA1' },
    });
    expect(missing.status).toBe(404);
    expect((await call(sim, 'PUT', path, { body: {} })).status).toBe(422);
    expect((await call(sim, 'PUT', path, { body: ['x'] })).status).toBe(400);
  });

  it('accepts object bodies for customer details (201) and the age group code (200)', async () => {
    const customer = await call(sim, 'POST', '/external/api/customers/details', {
      body: { externalId: 'K1', email: 'k@example.com' },
    });
    expect(customer.status).toBe(201);
    expect(sim.state('customers')).toEqual([
      { id: 'K1', externalId: 'K1', email: 'k@example.com' },
    ]);
    const code = await call(sim, 'PUT', '/external/api/age-group-code', { body: { code: 'AG-1' } });
    expect(code.status).toBe(200);
    expect((await call(sim, 'GET', '/external/api/age-group-code')).body).toEqual({ code: 'AG-1' });
    expect((await call(sim, 'POST', '/external/api/customers/details', { body: [1] })).status).toBe(
      400,
    );
  });
});

describe('bindings', () => {
  it('serves the paths and limits of binding overrides', async () => {
    const bound = await startSimulator({
      bindings: {
        'products.put': { path: '/v2/items', maxBytes: 200 },
        'products.delete': { deleteQueryParam: 'id' },
      },
    });
    try {
      expect((await call(bound, 'PUT', '/v2/items', { body: [product('1')] })).status).toBe(200);
      expect((await call(bound, 'PUT', PRODUCTS, { body: [product('2')] })).status).toBe(404);
      const big = await call(bound, 'PUT', '/v2/items', { body: [product('1'), product('2')] });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
      expect((await call(bound, 'DELETE', `${PRODUCTS}?id=1`)).status).toBe(200);
      expect(bound.state('products')).toEqual([]);
    } finally {
      await bound.close();
    }
  });
});
