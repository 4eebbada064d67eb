import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInterfaceClient } from '../../src/interface/client.js';
import type { InterfaceClient } from '../../src/interface/client-types.js';
import { AuthError, PermanentHttpError } from '../../src/interface/errors.js';
import { createLogger } from '../../src/logging/logger.js';
import {
  interfaceConfig,
  rejection,
  sendJson,
  startTestServer,
  type SeenRequest,
  type TestServer,
} from './client-test-server.js';

let server: TestServer;
const clients: InterfaceClient[] = [];
const CLIENT_SECRET = 'client-secret-value-42';

function client(auth: Record<string, unknown>, logLines?: string[]): InterfaceClient {
  const logger = logLines
    ? createLogger({
        level: 'trace',
        format: 'json',
        destination: new Writable({
          write(chunk: Buffer, _enc, done) {
            logLines.push(chunk.toString('utf8'));
            done();
          },
        }),
      })
    : undefined;
  const c = createInterfaceClient(interfaceConfig({ baseUrl: server.url, auth }), { logger });
  clients.push(c);
  return c;
}

const apiRequests = (): SeenRequest[] => server.requests.filter((r) => r.url !== '/oauth/token');
const tokenRequests = (): SeenRequest[] => server.requests.filter((r) => r.url === '/oauth/token');

beforeEach(async () => {
  server = await startTestServer((_req, res) => sendJson(res, 200, {}));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

describe('static credentials', () => {
  it('bearer: Authorization: Bearer <token>', async () => {
    await client({ type: 'bearer', token: 'tok-abc' }).call({ operationId: 'stores.get' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer tok-abc');
  });

  it('apiKey: the key in the configured header', async () => {
    await client({ type: 'apiKey', header: 'X-Shop-Key', key: 'k-123' }).call({
      operationId: 'stores.get',
    });
    expect(server.requests[0]?.headers['x-shop-key']).toBe('k-123');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("apiKey in a query parameter: appended to the call's own query string", async () => {
    await client({ type: 'apiKey', query: 'api_key', key: 'k/1 2' }).call({
      operationId: 'orders.get',
      query: { page: '2' },
    });
    expect(server.requests[0]?.url).toBe('/external/api/orders?page=2&api_key=k%2F1+2');
    expect(server.requests[0]?.headers['x-api-key']).toBeUndefined();
  });

  it('apiKey in a cookie', async () => {
    await client({ type: 'apiKey', cookie: 'session_key', key: 'k-9' }).call({
      operationId: 'stores.get',
    });
    expect(server.requests[0]?.headers.cookie).toBe('session_key=k-9');
  });

  it('apiKey: one place only (header, query or cookie), else the config names the problem', () => {
    expect(() => client({ type: 'apiKey', query: 'a', cookie: 'b', key: 'k' })).toThrow(
      /one of header, query or cookie/,
    );
  });

  it('basic: username and password, base64', async () => {
    await client({ type: 'basic', username: 'ferry', password: 'pw:1' }).call({
      operationId: 'stores.get',
    });
    const expected = `Basic ${Buffer.from('ferry:pw:1').toString('base64')}`;
    expect(server.requests[0]?.headers.authorization).toBe(expected);
  });

  it('none: no credential at all', async () => {
    await client({ type: 'none' }).call({ operationId: 'stores.get' });
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('a refused static token is an AuthError at once (nothing to refresh), without the token', async () => {
    server.handler = (_req, res) => sendJson(res, 401, { error: { code: 'UNAUTHORIZED' } });
    const error = await rejection(
      client({ type: 'bearer', token: 'wrong-token-xyz' }).call({ operationId: 'stores.get' }),
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('FERRY_HTTP_AUTH');
    expect((error as AuthError).status).toBe(401);
    expect(error.message).toContain('401');
    expect(error.message).not.toContain('wrong-token-xyz');
    expect(server.requests).toHaveLength(1);
  });
});

describe('OAuth2 client credentials', () => {
  /** A token endpoint issuing tok-1, tok-2, ...; the API accepts only the tokens in `valid`. */
  function oauthServer(valid: Set<string>, expiresIn: number | undefined = 3600): void {
    let issued = 0;
    server.handler = (req, res) => {
      if (req.url === '/oauth/token') {
        const token = `tok-${++issued}`;
        sendJson(res, 200, { access_token: token, token_type: 'Bearer', expires_in: expiresIn });
        return;
      }
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (valid.has(token)) sendJson(res, 200, { token });
      else sendJson(res, 401, { error: { code: 'UNAUTHORIZED', message: 'bad token' } });
    };
  }

  const oauth = (extra: Record<string, unknown> = {}) => ({
    type: 'oauth2',
    tokenUrl: `${server.url}/oauth/token`,
    clientId: 'ferry-client',
    clientSecret: CLIENT_SECRET,
    scope: 'catalog:write',
    ...extra,
  });

  it('resolves a relative tokenUrl against the base URL, below its path', async () => {
    server.handler = (req, res) =>
      req.url === '/shop/oauth/token'
        ? sendJson(res, 200, { access_token: 'tok-rel', expires_in: 60 })
        : sendJson(res, 200, {});
    const c = createInterfaceClient(
      interfaceConfig({ baseUrl: `${server.url}/shop`, auth: oauth({ tokenUrl: 'oauth/token' }) }),
    );
    clients.push(c);
    await c.call({ operationId: 'stores.get' });
    expect(server.requests.map((r) => r.url)).toEqual([
      '/shop/oauth/token',
      '/shop/external/api/stores',
    ]);
    expect(server.requests[1]?.headers.authorization).toBe('Bearer tok-rel');
  });

  it('fetches a token with client credentials (basic) and caches it', async () => {
    oauthServer(new Set(['tok-1']));
    const c = client(oauth());
    await c.call({ operationId: 'stores.get' });
    await Promise.all([1, 2, 3].map(() => c.call({ operationId: 'stores.get' })));
    expect(tokenRequests()).toHaveLength(1);
    const tokenRequest = tokenRequests()[0];
    expect(tokenRequest?.method).toBe('POST');
    expect(tokenRequest?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
      grant_type: 'client_credentials',
      scope: 'catalog:write',
    });
    const basic = Buffer.from(`ferry-client:${CLIENT_SECRET}`).toString('base64');
    expect(tokenRequest?.headers.authorization).toBe(`Basic ${basic}`);
    expect(apiRequests().every((r) => r.headers.authorization === 'Bearer tok-1')).toBe(true);
  });

  it('sends the client credentials as form fields when clientAuth is body', async () => {
    oauthServer(new Set(['tok-1']));
    await client(oauth({ clientAuth: 'body' })).call({ operationId: 'stores.get' });
    const form = new URLSearchParams(tokenRequests()[0]?.body);
    expect(form.get('client_id')).toBe('ferry-client');
    expect(form.get('client_secret')).toBe(CLIENT_SECRET);
    expect(tokenRequests()[0]?.headers.authorization).toBeUndefined();
  });

  it('fetches a new token once the cached one has expired', async () => {
    oauthServer(new Set(['tok-1', 'tok-2']), 0.001); // 1 ms lifetime
    const c = client(oauth());
    await c.call({ operationId: 'stores.get' });
    await new Promise((r) => setTimeout(r, 20));
    await c.call({ operationId: 'stores.get' });
    expect(tokenRequests()).toHaveLength(2);
  });

  it('on a 401 refreshes the token once and repeats the request, which succeeds', async () => {
    const valid = new Set(['tok-1']);
    oauthServer(valid);
    const c = client(oauth());
    await c.call({ operationId: 'stores.get' });
    valid.clear(); // the platform revokes tok-1 and will accept the next one
    valid.add('tok-2');
    const res = await c.call({ operationId: 'products.put', body: [], idempotencyKey: 'k1' });
    expect(res.body).toEqual({ token: 'tok-2' });
    expect(tokenRequests()).toHaveLength(2);
    const repeated = apiRequests().slice(1);
    expect(repeated.map((r) => r.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(repeated.map((r) => r.headers['idempotency-key'])).toEqual(['k1', 'k1']);
  });

  it('a second 401 after the refresh is an AuthError', async () => {
    oauthServer(new Set()); // accepts no token at all
    const error = await rejection(client(oauth()).call({ operationId: 'stores.get' }));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain('401');
    expect(error.message).toContain('after refreshing credentials once');
    expect(tokenRequests()).toHaveLength(2);
    expect(apiRequests()).toHaveLength(2);
  });

  it('a token endpoint that refuses the client is an AuthError without the secret', async () => {
    server.handler = (_req, res) =>
      sendJson(res, 401, { error: 'invalid_client', error_description: 'unknown client' });
    const error = await rejection(client(oauth()).call({ operationId: 'stores.get' }));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toContain('token endpoint refused');
    expect(JSON.stringify(error)).not.toContain(CLIENT_SECRET);
    expect(apiRequests()).toHaveLength(0);
  });
});

describe('secrets', () => {
  /** An API that echoes the request's credentials in a 400 (the worst case). */
  function echoServer(): void {
    server.handler = (req, res) =>
      sendJson(
        res,
        400,
        { error: { code: 'VALIDATION_FAILED', message: `you sent ${req.headers.authorization}` } },
        { 'x-echo': String(req.headers.authorization) },
      );
  }

  function expectNoSecret(error: Error, logLines: string[], secrets: string[]): void {
    const e = error as PermanentHttpError;
    const everything = [
      error.message,
      JSON.stringify(e.toJSON()),
      JSON.stringify(e.context),
      e.stack ?? '',
      ...logLines,
    ].join('\n');
    for (const secret of secrets) expect(everything).not.toContain(secret);
  }

  it('a bearer token never appears in an error or a log line', async () => {
    echoServer();
    const lines: string[] = [];
    const error = await rejection(
      client({ type: 'bearer', token: 'sekret-token-777' }, lines).call({
        operationId: 'products.put',
        body: [{ externalId: 'p1' }],
      }),
    );
    expect(error).toBeInstanceOf(PermanentHttpError);
    expect(lines.length).toBeGreaterThan(0); // the call was logged
    expect((error as PermanentHttpError).context.bodyExcerpt).toContain('[redacted]');
    expectNoSecret(error, lines, ['sekret-token-777']);
  });

  it('an API key in the query string never appears in an error or a log line', async () => {
    server.handler = (req, res) =>
      sendJson(res, 400, { error: { code: 'VALIDATION_FAILED', message: `you asked ${req.url}` } });
    const lines: string[] = [];
    const error = await rejection(
      client({ type: 'apiKey', query: 'api_key', key: 'query-key-31337' }, lines).call({
        operationId: 'stores.get',
      }),
    );
    expect(error).toBeInstanceOf(PermanentHttpError);
    expectNoSecret(error, lines, ['query-key-31337']);
  });

  it('a basic password (and its base64 form) never appears in an error or a log line', async () => {
    echoServer();
    const lines: string[] = [];
    const error = await rejection(
      client({ type: 'basic', username: 'u', password: 'p4ssw0rd-secret' }, lines).call({
        operationId: 'stores.get',
      }),
    );
    const encoded = Buffer.from('u:p4ssw0rd-secret').toString('base64');
    expectNoSecret(error, lines, ['p4ssw0rd-secret', encoded]);
  });

  it('an OAuth2 access token and client secret never appear in an error or a log line', async () => {
    server.handler = (req, res) => {
      if (req.url === '/oauth/token') {
        sendJson(res, 200, { access_token: 'access-token-999', expires_in: 3600 });
      } else {
        sendJson(res, 401, {
          error: { code: 'UNAUTHORIZED', message: `${req.headers.authorization} refused` },
        });
      }
    };
    const lines: string[] = [];
    const error = await rejection(
      client(
        {
          type: 'oauth2',
          tokenUrl: `${server.url}/oauth/token`,
          clientId: 'cid',
          clientSecret: CLIENT_SECRET,
        },
        lines,
      ).call({ operationId: 'stores.get' }),
    );
    expect(error).toBeInstanceOf(AuthError);
    expectNoSecret(error, lines, ['access-token-999', CLIENT_SECRET]);
  });
});
