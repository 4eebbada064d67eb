/**
 * The console's browser sessions and pages over real TCP: pages send a browser without a session
 * to /login; a login sets an HttpOnly SameSite=Strict cookie holding no token; writes made with
 * the cookie need the session's CSRF token (the queue board's, the console's own origin); a viewer
 * is refused every write, in the API, the pages and the board; logins are rate-limited; a logout
 * ends the session; no page nor answer shows a secret of the config, and data from an export is
 * escaped, never markup.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { buildServer } from '../../src/serve/server.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  consoleTestConfig,
  itemRow,
  OPERATOR,
  VIEWER,
  deliverItems,
  listenConsole,
} from './console-fixtures.js';

const CANARY = 'canary-interface-secret-7f3a9c';
const h = useDeliveryHarness('console-sessions', { seed: 71, token: CANARY });
let config: FerryConfig;
let app: FastifyInstance;
let url: string;
let worker: DeliveryWorker;
let runId: string;

beforeAll(async () => {
  const base = consoleTestConfig(h, { loginAttemptsPerMinute: 100 });
  config = { ...base, interface: { ...base.interface, auth: { type: 'bearer', token: CANARY } } };
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  runId = await deliverItems(h, config, [
    itemRow('A100', '100,00', 'Plain'),
    itemRow('A200', '-1,00', 'Negative'),
    itemRow('A300', '<img src=x onerror=alert(1)>', 'Bad'),
  ]);
  ({ app, url } = await listenConsole(config, h.redis));
});

afterAll(async () => {
  await app.close();
  await worker.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

async function call(
  path: string,
  options: {
    method?: 'GET' | 'POST' | 'PUT';
    headers?: Record<string, string>;
    body?: string;
  } = {},
): Promise<Answer> {
  const res = await request(`${url}${path}`, {
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

async function logIn(token: string): Promise<{ cookie: string; csrf: string }> {
  const answer = await call('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, next: '/runs' }).toString(),
  });
  expect(answer.status).toBe(303);
  const cookie = String(answer.headers['set-cookie']).split(';')[0]!;
  const page = await call('/', { headers: { cookie } });
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)?.[1];
  expect(csrf).toBeDefined();
  return { cookie, csrf: csrf! };
}

describe('without a session', () => {
  it('sends a page to /login and answers the API 401', async () => {
    const page = await call('/dead-letters?key=A1');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/login?next=%2Fdead-letters%3Fkey%3DA1');
    expect((await call('/api/runs')).status).toBe(401);
    expect((await call('/login')).status).toBe(200);
  });

  it('refuses an unknown token at /login and never redirects off the console', async () => {
    const wrong = await call('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '1' },
      body: 'token=not-a-token&next=/',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('not known');
    const away = await call('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: VIEWER, next: '//evil.example/' }).toString(),
    });
    expect(away.headers.location).toBe('/');
  });
});

describe('the login redirect', () => {
  const login = (next: string) =>
    call('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: VIEWER, next }).toString(),
    });

  it('goes to / for anything but a path of this console, control characters and backslashes included', async () => {
    const page = await call('/login?next=%2F%09%2Fevil.example');
    expect(page.text).toContain('name="next" value="/"');
    for (const next of [
      '/\t/evil.example',
      '/\n/evil.example',
      '/\\evil.example',
      '/%5C%5Cevil.example',
      '/%09/evil.example',
      '%2F%2Fevil.example',
      ' /runs',
      'https://evil.example/',
      '/runs%',
    ]) {
      const answer = await login(next);
      expect({ next, location: answer.headers.location }).toEqual({ next, location: '/' });
    }
    expect((await login('/dead-letters?key=A%201')).headers.location).toBe(
      '/dead-letters?key=A%201',
    );
  });
});

describe('a session', () => {
  it('is an HttpOnly SameSite=Strict cookie that holds no token', async () => {
    const answer = await call('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${OPERATOR}&next=/runs`,
    });
    expect(answer.headers.location).toBe('/runs');
    const setCookie = String(answer.headers['set-cookie']);
    expect(setCookie).toMatch(/^ferry_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain(OPERATOR);
  });

  it('needs the CSRF token for a write, and lets the write through with it', async () => {
    const { cookie, csrf } = await logIn(OPERATOR);
    const path = '/api/pipelines/stores/schedule/pause';
    const bare = await call(path, { method: 'POST', headers: { cookie } });
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.text).error.code).toBe('FERRY_CSRF');
    const forged = await call(path, { method: 'POST', headers: { cookie, 'x-csrf-token': 'x' } });
    expect(forged.status).toBe(403);
    // The CSRF check passed: the answer is the route's own (stores has no schedule).
    const sent = await call(path, { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } });
    expect(JSON.parse(sent.text).error?.code).not.toBe('FERRY_CSRF');
    expect(sent.status).not.toBe(403);
  });

  it('ends at logout: the same cookie opens nothing afterwards', async () => {
    const { cookie, csrf } = await logIn(VIEWER);
    expect((await call('/runs', { headers: { cookie } })).status).toBe(200);
    const out = await call('/logout', {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.status).toBe(200);
    expect((await call('/runs', { headers: { cookie } })).status).toBe(303);
    expect((await call('/api/runs', { headers: { cookie } })).status).toBe(401);
  });
});

describe('a viewer', () => {
  it('reads every page but is refused every write: API, pages and queue board', async () => {
    const { cookie, csrf } = await logIn(VIEWER);
    for (const page of ['/', '/runs', `/runs/${runId}`, '/dead-letters', '/audit', '/queues']) {
      expect((await call(page, { headers: { cookie } })).status, page).toBe(200);
    }
    const writes: Array<[string, 'POST' | 'PUT']> = [
      [`/api/runs/${runId}/cancel`, 'POST'],
      [`/api/runs/${runId}/allow-deletes`, 'POST'],
      ['/api/dead-letters/replay', 'POST'],
      ['/api/pipelines/stores/runs', 'POST'],
      ['/api/pipelines/catalog/schedule/pause', 'POST'],
      ['/queues/api/queues/pause', 'PUT'],
    ];
    for (const [path, method] of writes) {
      const withCookie = await call(path, {
        method,
        headers: { cookie, 'x-csrf-token': csrf, origin: url },
      });
      expect(withCookie.status, path).toBe(403);
      const withBearer = await call(path, {
        method,
        headers: { authorization: `Bearer ${VIEWER}` },
      });
      expect(withBearer.status, path).toBe(403);
    }
    const upload = await call('/pipelines/stores', { headers: { cookie } });
    expect(upload.text).not.toContain('data-upload');
  });
});

describe('the queue board', () => {
  it('takes an operator write from its own origin only, and audits it', async () => {
    const { cookie } = await logIn(OPERATOR);
    const path = '/queues/api/queues/resume';
    expect((await call(path, { method: 'PUT', headers: { cookie } })).status).toBe(403);
    const foreign = { cookie, origin: 'http://evil.example' };
    expect((await call(path, { method: 'PUT', headers: foreign })).status).toBe(403);
    const own = await call(path, { method: 'PUT', headers: { cookie, origin: url } });
    expect(own.status).toBe(200);
    const audit = await call('/api/audit', { headers: { authorization: `Bearer ${VIEWER}` } });
    expect(JSON.parse(audit.text)).toContainEqual(
      expect.objectContaining({
        actor: 'alice',
        action: 'queues.put',
        target: '/api/queues/resume',
      }),
    );
  });
});

it('shows no secret on any page or answer, and escapes what an export holds', async () => {
  const auth = { authorization: `Bearer ${OPERATOR}` };
  const letters = JSON.parse((await call('/api/dead-letters', { headers: auth })).text) as {
    entries: Array<{ id: string }>;
  };
  expect(letters.entries.length).toBeGreaterThan(0);
  const paths = [
    '/',
    '/runs',
    `/runs/${runId}`,
    `/runs/${runId}/report.json`,
    `/runs/${runId}/failures.csv`,
    '/dead-letters',
    '/dead-letters/export.csv',
    ...letters.entries.map((e) => `/dead-letters/${e.id}`),
    ...letters.entries.map((e) => `/api/dead-letters/${e.id}`),
    '/pipelines/catalog',
    '/audit',
    '/api/pipelines',
    '/api/runs',
    `/api/runs/${runId}`,
    '/api/queues',
    '/api/openapi.json',
    '/metrics',
  ];
  for (const path of paths) {
    const answer = await call(path, { headers: auth });
    expect(answer.status, path).toBe(200);
    for (const secret of [CANARY, OPERATOR, VIEWER])
      expect(answer.text, path).not.toContain(secret);
  }
  const run = await call(`/runs/${runId}`, { headers: auth });
  expect(run.text).not.toContain('<img src=x');
  expect(run.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
});

it('limits login attempts per address (the last, 429, tells when to retry)', async () => {
  const strict = { ...config, serve: { ...config.serve, loginAttemptsPerMinute: 3 } };
  const guarded = await buildServer({ config: strict, redis: h.redis, logger: quietLogger() });
  const at = await guarded.listen({ host: '127.0.0.1', port: 0 });
  const statuses: number[] = [];
  let last: Answer | undefined;
  try {
    for (let i = 0; i < 4; i++) {
      const res = await request(`${at}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: i === 0 ? `token=${VIEWER}&next=/` : 'token=guess&next=/',
      });
      last = { status: res.statusCode, headers: res.headers, text: await res.body.text() };
      statuses.push(res.statusCode);
    }
  } finally {
    await guarded.close();
  }
  expect(statuses).toEqual([303, 401, 401, 429]);
  expect(last!.text).toMatch(/Too many login attempts from this address: try again in \d+ s/);
  expect(last!.headers['content-type']).toContain('text/html');
});

it('charts every delivered item: the overview per minute, the run per 10 s', async () => {
  const auth = { authorization: `Bearer ${VIEWER}` };
  const report = JSON.parse((await call(`/api/runs/${runId}`, { headers: auth })).text) as {
    operations: Record<string, { delivered: number }>;
  };
  const delivered = Object.values(report.operations).reduce((n, o) => n + o.delivered, 0);
  expect(delivered).toBeGreaterThan(0);
  const chartSum = async (path: string, id: string): Promise<number> => {
    const text = (await call(path, { headers: auth })).text;
    const json = new RegExp(`id="${id}">([^<]*)</script>`).exec(text)?.[1];
    const data = JSON.parse(json!) as { ys: number[][] };
    return data.ys[0]!.reduce((n, y) => n + y, 0);
  };
  expect(await chartSum('/', 'throughput-data')).toBe(delivered);
  expect(await chartSum(`/runs/${runId}`, 'timeline-data')).toBe(delivered);
});

it('answers every write route of the API 401 without a token and 403 to a viewer', async () => {
  const spec = JSON.parse(
    (await call('/api/openapi.json', { headers: { authorization: `Bearer ${VIEWER}` } })).text,
  ) as { paths: Record<string, Record<string, unknown>> };
  const writes = Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((m) => ['post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => [path.replace(/\{[^}]+\}/g, 'x'), m.toUpperCase()] as const),
  );
  // Cancel, allow-deletes, replay (one, a selection), pause, resume, import: at least these.
  expect(writes.length).toBeGreaterThanOrEqual(7);
  for (const [path, method] of writes) {
    if (path === '/login' || path === '/logout') continue;
    const anonymous = await call(path, { method: method as 'POST' });
    expect(anonymous.status, `${method} ${path}`).toBe(401);
    const viewer = await call(path, {
      method: method as 'POST',
      headers: { authorization: `Bearer ${VIEWER}` },
    });
    expect(viewer.status, `${method} ${path}`).toBe(403);
  }
});
