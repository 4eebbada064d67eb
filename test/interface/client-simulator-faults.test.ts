/** Each class of answer, produced by the simulator over TCP, classified by Ferry's client. */
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createInterfaceClient } from '../../src/interface/client.js';
import type { InterfaceClient } from '../../src/interface/client-types.js';
import {
  AuthError,
  InProgressError,
  NetworkError,
  PermanentHttpError,
  RateLimitedError,
  TimeoutError,
  TransientHttpError,
} from '../../src/interface/errors.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { interfaceConfig, rejection } from './client-test-server.js';

const TOKEN = 'fault-token-1';
let sim: RunningSimulator;
let client: InterfaceClient;
const extraClients: InterfaceClient[] = [];

const product = (externalId: string) => ({
  externalId,
  name: `Product ${externalId}`,
  vendor: 'Acme',
  handle: externalId,
  active: true,
  categoryExternalIds: [],
});

function newClient(overrides: Record<string, unknown> = {}): InterfaceClient {
  const c = createInterfaceClient(
    interfaceConfig({ baseUrl: sim.url, auth: { type: 'bearer', token: TOKEN }, ...overrides }),
  );
  extraClients.push(c);
  return c;
}

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    listing: 'A',
    token: TOKEN,
    seed: 11,
    oauth: { clientId: 'ferry', clientSecret: 'oauth-secret-1' },
  });
  client = newClient();
});
afterEach(() => {
  sim.reset();
  sim.setToken(TOKEN);
});
afterAll(async () => {
  await Promise.all(extraClients.map((c) => c.close()));
  await sim.close();
});

describe('answers of the simulator', () => {
  it('200 for a batch that applied, 207 with per-item results when an item is invalid', async () => {
    const ok = await client.call({ operationId: 'products.put', body: [product('a')] });
    expect(ok.status).toBe(200);
    const mixed = await client.call({
      operationId: 'users.put',
      body: [
        { externalId: 'u1', firstName: 'A', lastName: 'B', email: 'a@example.com' },
        { externalId: 'u2', firstName: 'C', lastName: 'D', email: 'no-at-sign' },
      ],
    });
    expect(mixed.status).toBe(207);
    const results = (mixed.body as { results: { externalId: string; status: number }[] }).results;
    expect(results.map((r) => [r.externalId, r.status])).toEqual([
      ['u1', 200],
      ['u2', 422],
    ]);
  });

  it('400 for a body of the wrong shape is permanent', async () => {
    const error = await rejection(
      client.call({ operationId: 'products.put', body: { not: 'an array' } }),
    );
    expect(error).toBeInstanceOf(PermanentHttpError);
    expect((error as PermanentHttpError).status).toBe(400);
  });

  it('422 for an invalid single-entity write is permanent', async () => {
    await client.call({ operationId: 'products.put', body: [product('p1')] });
    const error = await rejection(
      client.call({
        operationId: 'products.prices.patch',
        pathParams: { productId: 'p1' },
        body: { prices: [{ amount: '-5.00', currency: 'NOK' }] },
      }),
    );
    expect(error).toBeInstanceOf(PermanentHttpError);
    expect((error as PermanentHttpError).status).toBe(422);
  });

  it('422 for an idempotency key reused with another body is permanent', async () => {
    await client.call({ operationId: 'products.put', body: [product('k1')], idempotencyKey: 'K' });
    const error = await rejection(
      client.call({ operationId: 'products.put', body: [product('k2')], idempotencyKey: 'K' }),
    );
    expect(error).toBeInstanceOf(PermanentHttpError);
    expect((error as PermanentHttpError).context.body).toMatchObject({
      error: { code: 'IDEMPOTENCY_KEY_REUSED' },
    });
  });

  it('409 while the same key is in flight is InProgressError', async () => {
    sim.setFaults({ latency: [1_000, 1_000] });
    const request = { operationId: 'products.put', body: [product('f1')], idempotencyKey: 'F' };
    const outcomes = await Promise.allSettled([client.call(request), client.call(request)]);
    // Whichever arrived second found the first in flight.
    const rejected = outcomes.filter((o) => o.status === 'rejected');
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(InProgressError);
  });

  it.each(['seconds', 'date'] as const)(
    '429 with Retry-After as %s is RateLimitedError',
    async (format) => {
      // Its clock stopped: the five requests fall in one window however slowly they are sent.
      const stopped = Date.now();
      const limiting = await startSimulator({
        port: 0,
        token: TOKEN,
        seed: 11,
        clock: () => stopped,
        faults: { rateLimit: 1, retryAfter: format },
      });
      onTestFinished(() => limiting.close());
      const limitedClient = newClient({ baseUrl: limiting.url });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, () => limitedClient.call({ operationId: 'orders.get' })),
      );
      const limited = outcomes
        .filter((o): o is PromiseRejectedResult => o.status === 'rejected')
        .map((o) => o.reason as Error);
      expect(limited).toHaveLength(4);
      for (const error of limited) {
        expect(error).toBeInstanceOf(RateLimitedError);
        expect((error as RateLimitedError).status).toBe(429);
        expect((error as RateLimitedError).retryAfterMs).toBeLessThanOrEqual(60_000);
      }
    },
  );

  it('500/502/503 without Retry-After are transient', async () => {
    sim.setFaults({ failRate: 1 });
    for (let i = 0; i < 3; i++) {
      const error = await rejection(client.call({ operationId: 'orders.get' }));
      expect(error).toBeInstanceOf(TransientHttpError);
      expect([500, 502, 503]).toContain((error as TransientHttpError).status);
    }
  });

  it('a reset connection is a NetworkError', async () => {
    sim.setFaults({ resetRate: 1 });
    const error = await rejection(client.call({ operationId: 'orders.get' }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(sim.stats().faults.reset).toBe(3); // the attempt and the two quick retries
  });

  it('a slow answer is a TimeoutError', async () => {
    sim.setFaults({ latency: [1_500, 1_500] });
    const error = await rejection(
      newClient({ timeouts: { headersMs: 200 } }).call({ operationId: 'orders.get' }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('headers');
  });

  it('OAuth2: a 401 refreshes the token once and the request succeeds', async () => {
    const c = newClient({
      auth: {
        type: 'oauth2',
        tokenUrl: `${sim.url}/oauth/token`,
        clientId: 'ferry',
        clientSecret: 'oauth-secret-1',
      },
    });
    expect((await c.call({ operationId: 'orders.get' })).status).toBe(200);
    sim.setToken('rotated-token-2'); // the old token is now refused; the endpoint issues the new one
    expect((await c.call({ operationId: 'orders.get' })).status).toBe(200);
    expect(sim.stats().unauthorized).toBe(1);
  });

  it('a wrong token is AuthError', async () => {
    const error = await rejection(
      newClient({ auth: { type: 'bearer', token: 'wrong' } }).call({ operationId: 'orders.get' }),
    );
    expect(error).toBeInstanceOf(AuthError);
  });
});
