/**
 * Purging dead letters through the console's API (real Redis, a worker and the simulator over
 * TCP): one entry, a selection of ids, or all a search finds with the number the operator
 * confirmed. Only an operator may (401 without a token, 403 for a viewer); an unknown id is 404
 * and purges nothing; the answer counts what went, the entries are gone, and each purge is in the
 * audit trail.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  consoleTestConfig,
  deliverItems,
  itemRow,
  listenConsole,
  OPERATOR,
  VIEWER,
} from './console-fixtures.js';

const h = useDeliveryHarness('console-purge', { seed: 52 });
/** Products the platform refuses (negative prices): one dead letter each. */
const REFUSED = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'];
let config: FerryConfig;
let app: FastifyInstance;
let url: string;
let worker: DeliveryWorker;

beforeAll(async () => {
  config = consoleTestConfig(h);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await deliverItems(h, config, [
    itemRow('A100', '100,00'),
    ...REFUSED.map((k) => itemRow(k, '-1,00')),
  ]);
  ({ app, url } = await listenConsole(config, h.redis));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
});

async function call(path: string, token: string | undefined, body?: unknown) {
  const res = await request(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

/** The id of the dead letter holding this key. */
async function idOf(key: string): Promise<string> {
  const { body } = await call(`/api/dead-letters?key=${key}`, VIEWER);
  const entries = body.entries as Array<{ id: string }>;
  expect(entries).toHaveLength(1);
  return entries[0]!.id;
}

async function waiting(): Promise<number> {
  const { body } = await call('/api/dead-letters?pipeline=catalog', VIEWER);
  return (body.entries as unknown[]).length;
}

async function lastAudit(): Promise<Record<string, unknown>> {
  const { body } = await call('/api/audit', VIEWER);
  return (body as unknown as Array<Record<string, unknown>>)[0]!;
}

it('lets only an operator purge: 401 without a token, 403 for a viewer, nothing purged', async () => {
  const id = await idOf('P1');
  const routes: Array<[string, unknown]> = [
    [`/api/dead-letters/${id}/purge`, {}],
    ['/api/dead-letters/purge', { ids: [id] }],
    ['/api/dead-letters/purge', { filter: { pipeline: 'catalog' }, expected: REFUSED.length }],
  ];
  for (const [path, body] of routes) {
    const none = await call(path, undefined, body);
    expect(none.status, path).toBe(401);
    expect(none.body).toMatchObject({ error: { code: 'FERRY_UNAUTHORIZED' } });
    const viewer = await call(path, VIEWER, body);
    expect(viewer.status, path).toBe(403);
    expect(viewer.body).toMatchObject({ error: { code: 'FERRY_FORBIDDEN' } });
  }
  expect(await waiting()).toBe(REFUSED.length);
});

it('purges one dead letter (a dry run only counts it), 404 for an unknown id, audited', async () => {
  const id = await idOf('P1');
  const missing = await call('/api/dead-letters/d-no-such-entry/purge', OPERATOR, {});
  expect(missing.status).toBe(404);
  expect(missing.body).toMatchObject({ error: { code: 'FERRY_NOT_FOUND' } });

  const dry = await call(`/api/dead-letters/${id}/purge`, OPERATOR, { dryRun: true });
  expect(dry.status).toBe(200);
  expect(dry.body).toEqual({
    dryRun: true,
    purged: [{ id, pipeline: 'catalog', operationId: 'products.prices.patch', keys: ['P1'] }],
  });
  expect((await call(`/api/dead-letters/${id}`, VIEWER)).status).toBe(200);

  const purged = await call(`/api/dead-letters/${id}/purge`, OPERATOR, {});
  expect(purged.status).toBe(200);
  expect(purged.body).toMatchObject({ dryRun: false, purged: [{ id, keys: ['P1'] }] });
  expect((await call(`/api/dead-letters/${id}`, VIEWER)).status).toBe(404);
  expect(await waiting()).toBe(REFUSED.length - 1);
  expect(await lastAudit()).toMatchObject({
    actor: 'alice',
    action: 'dead-letter.purge',
    target: id,
  });
  // Gone: a second purge of it finds nothing to purge.
  expect((await call(`/api/dead-letters/${id}/purge`, OPERATOR, {})).status).toBe(404);
});

it('purges a selection of ids all or none: an unknown id among them purges nothing', async () => {
  const ids = [await idOf('P2'), await idOf('P3')];
  const mixed = await call('/api/dead-letters/purge', OPERATOR, { ids: [...ids, 'd-nope'] });
  expect(mixed.status).toBe(404);
  expect(JSON.stringify(mixed.body)).toContain('d-nope');
  expect(await waiting()).toBe(REFUSED.length - 1);

  const purged = await call('/api/dead-letters/purge', OPERATOR, { ids });
  expect(purged.status).toBe(200);
  expect((purged.body.purged as Array<{ id: string }>).map((p) => p.id).sort()).toEqual(
    [...ids].sort(),
  );
  for (const id of ids) expect((await call(`/api/dead-letters/${id}`, VIEWER)).status).toBe(404);
  expect(await waiting()).toBe(REFUSED.length - 3);
  expect((await lastAudit()).target).toBe(ids.join(','));
});

it('purges all a search finds only with the number confirmed, audited by the search', async () => {
  const all = { filter: { pipeline: 'catalog' } };
  const left = REFUSED.length - 3;
  // No number confirmed: refused.
  const unsaid = await call('/api/dead-letters/purge', OPERATOR, all);
  expect(unsaid.status).toBe(400);
  expect(unsaid.body).toMatchObject({ error: { code: 'FERRY_USAGE' } });
  // An empty search would be every dead letter: refused by the schema.
  expect(
    (await call('/api/dead-letters/purge', OPERATOR, { filter: {}, expected: left })).status,
  ).toBe(400);

  const dry = await call('/api/dead-letters/purge', OPERATOR, { ...all, dryRun: true });
  expect(dry.status).toBe(200);
  expect((dry.body.purged as unknown[]).length).toBe(left);
  expect(await waiting()).toBe(left);

  // Another number than the one found (new failures came in meanwhile, say): nothing goes.
  const changed = await call('/api/dead-letters/purge', OPERATOR, { ...all, expected: left + 1 });
  expect(changed.status).toBe(409);
  expect(changed.body).toMatchObject({ error: { code: 'FERRY_DEAD_LETTERS_CHANGED' } });
  expect((changed.body.error as { message: string }).message).toContain(`${left} dead letter(s)`);
  expect(await waiting()).toBe(left);

  const purged = await call('/api/dead-letters/purge', OPERATOR, { ...all, expected: left });
  expect(purged.status).toBe(200);
  const keys = (purged.body.purged as Array<{ keys: string[] }>).flatMap((p) => p.keys).sort();
  expect(keys).toEqual(['P4', 'P5', 'P6']);
  expect(await waiting()).toBe(0);
  expect(await lastAudit()).toMatchObject({
    actor: 'alice',
    action: 'dead-letter.purge-search',
    target: `pipeline=catalog (${left})`,
  });
});
