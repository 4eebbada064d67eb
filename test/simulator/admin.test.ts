import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { PRODUCTS, call, product } from './sim-http.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 9,
    faults: { rejectKeys: ['X'] },
    oauth: { clientId: 'ferry', clientSecret: 's3cret' },
  });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

const admin = (method: string, path: string, body?: unknown) =>
  call(sim, method, `/__sim/${path}`, { token: null, body });

describe('admin endpoints', () => {
  it('GET stats and state/<resource> report what the interface did', async () => {
    await call(sim, 'PUT', PRODUCTS, { body: [product('1')] });
    await call(sim, 'PUT', '/external/api/categories', {
      body: [{ externalId: 'C1', name: 'Shoes' }],
    });
    const stats = await admin('GET', 'stats');
    expect(stats.body).toMatchObject({
      requests: 2,
      byOperation: { 'products.put': 1, 'categories.put': 1 },
      applied: 2,
      replayed: 0,
      rejected: 0,
      duplicates: 0,
      seed: 9,
    });
    expect((await admin('GET', 'state/products')).body).toEqual([product('1')]);
    expect((await admin('GET', 'state/categories')).body).toEqual([
      { externalId: 'C1', name: 'Shoes' },
    ]);
    expect((await admin('GET', 'state/prices')).body).toEqual([]);
    const unknown = await admin('GET', 'state/widgets');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { message: expect.stringContaining('products') } });
  });

  it('GET requests lists the interface requests with their time, key, status and items', async () => {
    const before = Date.now();
    await call(sim, 'PUT', PRODUCTS, { key: 'k1', body: [product('1'), product('2')] });
    await call(sim, 'GET', '/external/api/orders');
    await admin('GET', 'stats');
    const log = (await admin('GET', 'requests')).body as Record<string, unknown>[];
    expect(log).toMatchObject([
      {
        operationId: 'products.put',
        method: 'PUT',
        path: PRODUCTS,
        idempotencyKey: 'k1',
        status: 200,
        items: 2,
      },
      { operationId: 'orders.get', method: 'GET', idempotencyKey: null, status: 200, items: 0 },
    ]);
    expect(log[0]!.at).toBeGreaterThanOrEqual(before);
    expect((await admin('GET', 'requests?limit=1')).body).toMatchObject([
      { operationId: 'orders.get' },
    ]);
    expect((await admin('GET', 'requests?limit=x')).status).toBe(400);
  });

  it('POST faults changes fault settings, checks them, and POST reset restores the start', async () => {
    const set = await admin('POST', 'faults', { failRate: 1, rejectKeys: ['Y'] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ failRate: 1, rejectKeys: ['Y'], resetRate: 0 });
    expect([500, 502, 503]).toContain((await call(sim, 'GET', '/external/api/orders')).status);
    const bad = await admin('POST', 'faults', { failRate: 2, latency: [50, 10], typo: 1 });
    expect(bad.status).toBe(400);
    const message = (bad.body as { error: { message: string } }).error.message;
    expect(message).toContain('failRate');
    expect(message).toContain('latency');
    expect(message).toContain('typo');

    await admin('POST', 'faults', { failRate: 0 });
    await call(sim, 'PUT', PRODUCTS, { body: [product('1')] });
    expect((await admin('POST', 'reset')).status).toBe(200);
    expect(sim.state('products')).toEqual([]);
    expect(sim.stats()).toMatchObject({ requests: 0, applied: 0 });
    expect(sim.requests()).toEqual([]);
    expect((await admin('GET', 'faults')).body).toMatchObject({ failRate: 0, rejectKeys: ['X'] });
  });

  it('answers 404 for an unknown admin endpoint', async () => {
    expect((await admin('GET', 'nothing')).status).toBe(404);
  });
});

describe('tokens', () => {
  async function tokenRequest(form: Record<string, string>, authorization?: string) {
    const res = await request(`${sim.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(authorization ? { authorization } : {}),
      },
      body: new URLSearchParams(form).toString(),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  }

  it('issues the configured token for client credentials, in the form or as Basic auth', async () => {
    const issued = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: 'ferry',
      client_secret: 's3cret',
    });
    expect(issued).toEqual({
      status: 200,
      body: { access_token: 'dev-token', token_type: 'Bearer', expires_in: 3600 },
    });
    const basic = `Basic ${Buffer.from('ferry:s3cret').toString('base64')}`;
    expect((await tokenRequest({ grant_type: 'client_credentials' }, basic)).status).toBe(200);
    const wrong = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: 'ferry',
      client_secret: 'no',
    });
    expect(wrong).toEqual({ status: 401, body: { error: 'invalid_client' } });
    expect((await tokenRequest({ grant_type: 'password' })).status).toBe(400);
  });

  it('POST token rotates the accepted token, which /oauth/token then issues', async () => {
    expect((await admin('POST', 'token', { token: 'rotated' })).status).toBe(200);
    expect((await call(sim, 'GET', '/external/api/orders')).status).toBe(401);
    const issued = await tokenRequest({
      grant_type: 'client_credentials',
      client_id: 'ferry',
      client_secret: 's3cret',
    });
    expect(issued.body.access_token).toBe('rotated');
    expect((await call(sim, 'GET', '/external/api/orders', { token: 'rotated' })).status).toBe(200);
    expect((await admin('POST', 'token', {})).status).toBe(400);
  });
});
