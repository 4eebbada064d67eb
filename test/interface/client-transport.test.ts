import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';
import { createInterfaceClient } from '../../src/interface/client.js';
import type { InterfaceClient } from '../../src/interface/client-types.js';
import { NetworkError, TimeoutError } from '../../src/interface/errors.js';
import {
  OperationNotInListingError,
  UnknownOperationError,
} from '../../src/interface/operation-errors.js';
import {
  interfaceConfig,
  rejection,
  sendJson,
  startTestServer,
  type TestServer,
} from './client-test-server.js';

let server: TestServer;
const clients: InterfaceClient[] = [];

function client(overrides: Record<string, unknown> = {}, connections?: number): InterfaceClient {
  const c = createInterfaceClient(interfaceConfig({ baseUrl: server.url, ...overrides }), {
    connections,
  });
  clients.push(c);
  return c;
}

beforeEach(async () => {
  server = await startTestServer((_req, res) => sendJson(res, 200, { ok: true }));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

describe('connection failures', () => {
  it('a connection destroyed without an answer is a NetworkError after the quick retries', async () => {
    server.handler = (_req, _res, raw) => raw.socket.destroy();
    const error = await rejection(
      client({ quickRetries: 2 }).call({ operationId: 'products.put', body: [] }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).retryable).toBe(true);
    expect(server.requests).toHaveLength(3); // the first attempt and two quick retries
  });

  it('retries a keep-alive socket the server dropped, and succeeds within the budget', async () => {
    const c = client({ quickRetries: 2 });
    await c.call({ operationId: 'stores.get' }); // opens a keep-alive socket
    let drops = 2;
    server.handler = (_req, res, raw) => {
      if (drops-- > 0) raw.socket.destroy();
      else sendJson(res, 200, { ok: 'after retry' });
    };
    const res = await c.call({ operationId: 'products.put', body: [{ externalId: 'p1' }] });
    expect(res.body).toEqual({ ok: 'after retry' });
    expect(server.requests).toHaveLength(4);
    // The retried write carried the same idempotency key every time.
    const keys = new Set(server.requests.slice(1).map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
  });

  it('does not quick-retry a refused connection', async () => {
    const port = await freePort();
    const c = createInterfaceClient(interfaceConfig({ baseUrl: `http://127.0.0.1:${port}` }));
    clients.push(c);
    const error = await rejection(c.call({ operationId: 'stores.get' }));
    expect(error).toBeInstanceOf(NetworkError);
    // The origin it could not reach is named: with several platforms the path alone says nothing.
    expect(error.message).toBe(
      `stores.get (GET /external/api/stores): connection to http://127.0.0.1:${port} failed (ECONNREFUSED); a later attempt may succeed.`,
    );
  });

  it('a server that never answers is a TimeoutError in the headers phase', async () => {
    server.handler = () => undefined; // never answers; close() destroys the socket
    const c = client({ timeouts: { headersMs: 200 } });
    const error = await rejection(c.call({ operationId: 'stores.get' }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('headers');
    expect(error.message).toContain(`no headers from ${new URL(server.url).origin} within`);
    expect(server.requests).toHaveLength(1); // timeouts are not retried in the client
  });

  it('a body cut short after the answer began is a NetworkError, not retried: the platform answered', async () => {
    server.handler = (_req, res, raw) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"items": [', () => raw.socket.destroy());
    };
    const error = await rejection(
      client({ quickRetries: 2 }).call({ operationId: 'products.put', body: [] }),
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });

  it('an abort signal ends a call waiting for its answer, with the signal reason', async () => {
    // No answer ever comes (the server's close cuts the socket): only the signal ends the call.
    server.handler = () => undefined;
    const abort = new AbortController();
    const reason = new Error('stopped by the test');
    const error = rejection(client().call({ operationId: 'stores.get', signal: abort.signal }));
    await until('the request to arrive', () => server.requests.length === 1);
    abort.abort(reason);
    expect(await error).toBe(reason);
  });

  it('a body that stalls is a TimeoutError in the body phase', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"items": [');
    };
    const c = client({ timeouts: { bodyMs: 200 } });
    const error = await rejection(c.call({ operationId: 'stores.get' }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('body');
  });
});

describe('request shape', () => {
  it('sends an idempotency header on every write, the caller key or a generated one', async () => {
    const c = client();
    await c.call({ operationId: 'products.put', body: [], idempotencyKey: 'key-1' });
    await c.call({ operationId: 'products.patch', body: [] });
    await c.call({ operationId: 'products.delete', body: [] });
    await c.call({ operationId: 'customers.details.post', body: {} });
    await c.call({ operationId: 'stores.get' });
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe('key-1');
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[2]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).not.toBe(keys[2]);
    expect(keys[3]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[4]).toBeUndefined(); // a GET is not a write
  });

  it('uses the configured idempotency header name', async () => {
    await client({ idempotencyHeader: 'X-Request-Key' }).call({
      operationId: 'users.put',
      body: [],
      idempotencyKey: 'k9',
    });
    expect(server.requests[0]?.headers['x-request-key']).toBe('k9');
    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('sends JSON and reads JSON', async () => {
    const res = await client().call({
      operationId: 'categories.put',
      body: [{ externalId: 'c1', name: 'Bikes', sortIndex: 1 }],
    });
    const seen = server.requests[0];
    expect(seen?.method).toBe('PUT');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen?.body ?? '')).toEqual([
      { externalId: 'c1', name: 'Bikes', sortIndex: 1 },
    ]);
    expect(res.body).toEqual({ ok: true });
  });

  it('encodes path parameters', async () => {
    await client().call({
      operationId: 'discountCodes.campaign.put',
      pathParams: { discountCodeExternalId: 'a/b c?d#' },
      body: { campaignExternalId: 'camp-1' },
    });
    expect(server.requests[0]?.url).toBe('/external/api/discount-codes/a%2Fb%20c%3Fd%23/campaign');
  });

  it('repeats a query parameter given several values', async () => {
    await client().call({
      operationId: 'orders.get',
      query: { status: ['open', 'paid'], page: '2' },
    });
    expect(server.requests[0]?.url).toBe('/external/api/orders?status=open&status=paid&page=2');
  });

  it('sends a DELETE by query when the binding says so', async () => {
    const c = client({
      bindings: { 'products.delete': { deleteStyle: 'query', deleteQueryParam: 'id' } },
    });
    await c.call({
      operationId: 'products.delete',
      body: [{ externalId: 'p 1' }, { externalId: 'p2' }],
    });
    expect(server.requests[0]?.method).toBe('DELETE');
    expect(server.requests[0]?.url).toBe('/external/api/products?id=p+1&id=p2');
    expect(server.requests[0]?.body).toBe('');
    // A delivery job hands its payloads over as JSON text: the same request.
    await c.call({
      operationId: 'products.delete',
      bodyJson: '[{"externalId":"p 1"},{"externalId":"p2"}]',
    });
    expect(server.requests[1]?.url).toBe('/external/api/products?id=p+1&id=p2');
    expect(server.requests[1]?.body).toBe('');
  });

  it('reads the answer whole: repeated headers joined, a byte-order mark dropped, chunks in order', async () => {
    server.handler = (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-note', ['a', 'b']);
      res.writeHead(200);
      res.write('\ufeff{"name":');
      setTimeout(() => res.end('"Ø"}'), 20);
    };
    const res = await client().call({ operationId: 'stores.get' });
    expect(res.headers['x-note']).toBe('a, b');
    expect(res.body).toEqual({ name: 'Ø' });
    expect(res.body).toBe(res.body); // parsed once
    // Written as JSON (`ferry call --json`), the answer carries its body.
    expect(JSON.parse(JSON.stringify(res))).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'x-note': 'a, b' }) as unknown,
      body: { name: 'Ø' },
    });
  });

  it('sends a body given as JSON text as it is', async () => {
    const c = client();
    await c.call({ operationId: 'products.put', bodyJson: '[{"externalId":"p1","name":"Ø"}]' });
    expect(server.requests[0]?.body).toBe('[{"externalId":"p1","name":"Ø"}]');
  });

  it('follows a binding path override and a base URL with a path prefix', async () => {
    const c = client({
      baseUrl: `${server.url}/shop/`,
      bindings: { 'stores.get': { path: '/v2/stores' } },
    });
    await c.call({ operationId: 'stores.get' });
    expect(server.requests[0]?.url).toBe('/shop/v2/stores');
  });

  it('goes to demoBaseUrl when useDemo is true', async () => {
    const demo = await startTestServer((_req, res) => sendJson(res, 200, { demo: true }));
    try {
      const c = client({ baseUrl: 'http://127.0.0.1:9', demoBaseUrl: demo.url, useDemo: true });
      const res = await c.call({ operationId: 'stores.get' });
      expect(res.body).toEqual({ demo: true });
      expect(demo.requests).toHaveLength(1);
    } finally {
      await demo.close();
    }
  });

  it('bounds the sockets per origin to `connections`', async () => {
    server.handler = (_req, res) => setTimeout(() => sendJson(res, 200, {}), 30);
    const c = client({}, 2);
    await Promise.all(Array.from({ length: 8 }, () => c.call({ operationId: 'stores.get' })));
    expect(server.requests).toHaveLength(8);
    expect(new Set(server.requests.map((r) => r.remotePort)).size).toBeLessThanOrEqual(2);
  });
});

describe('checks before any request', () => {
  it('an operation outside the listing fails naming it and the listing, with no request', async () => {
    const error = await rejection(client({ listing: 'B' }).call({ operationId: 'products.get' }));
    expect(error).toBeInstanceOf(OperationNotInListingError);
    expect(error.message).toContain('products.get');
    expect(error.message).toContain('listing B');
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown operation fails with no request', async () => {
    const error = await rejection(client().call({ operationId: 'products.explode' }));
    expect(error).toBeInstanceOf(UnknownOperationError);
    expect(server.requests).toHaveLength(0);
  });

  it('a missing path parameter fails naming it, with no request', async () => {
    const error = await rejection(
      client().call({ operationId: 'products.prices.patch', body: { prices: [] } }),
    );
    expect(error.message).toContain('productId');
    expect(server.requests).toHaveLength(0);
  });
});
