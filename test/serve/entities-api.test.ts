/**
 * The console's entity trace: `GET /api/entities/{pipeline}/{key}` answers a viewer the document
 * `ferry trace --json` prints (a key with leading zeros is its own key), 401 without a token, 404
 * for a pipeline with no file; the OpenAPI description lists it. A product whose row was rejected
 * (a price that is no number) is not "never seen": the API, `ferry trace`, the trace page and the
 * run page name the run, file, line, field and message.
 */
import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { request } from 'undici';
import { main } from '../../src/cli/main.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { RETENTION_S } from '../../src/runs/finish-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { writeConfigFile } from '../queue/cli-process.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  consoleTestConfig,
  itemRow,
  VIEWER,
  deliverItems,
  listenConsole,
} from './console-fixtures.js';

const h = useDeliveryHarness('console-entities', { seed: 52 });
let config: FerryConfig;
let app: FastifyInstance;
let url: string;
let worker: DeliveryWorker;
let runId: string;

beforeAll(async () => {
  config = {
    ...consoleTestConfig(h),
    telemetry: { otlp: {}, traceUrl: 'https://tempo.example/trace/{traceId}' },
  };
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  runId = await deliverItems(h, config, [
    itemRow('00042', '42,00'),
    itemRow('A200', '-12,00'),
    itemRow('B300', 'twelve'),
  ]);
  ({ app, url } = await listenConsole(config, h.redis));
});

afterAll(async () => {
  await app.close();
  await worker.close();
});

async function get(path: string, token?: string) {
  const res = await request(`${url}${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

it("answers a viewer a key's trace; leading zeros are part of the key", async () => {
  const found = await get('/api/entities/catalog/00042', VIEWER);
  expect(found.status).toBe(200);
  expect(found.body).toMatchObject({
    pipeline: 'catalog',
    key: '00042',
    state: { resource: 'products', deleted: false, committed: { runId } },
    changes: [
      { runId, operationId: 'products.put', change: 'upsert', outcome: 'delivered' },
      { runId, operationId: 'products.prices.patch', change: 'upsert', outcome: 'delivered' },
    ],
    deadLetters: [],
  });
  const other = await get('/api/entities/catalog/42', VIEWER);
  expect(other.status).toBe(200);
  expect(other.body).toEqual({
    pipeline: 'catalog',
    key: '42',
    states: [],
    changes: [],
    runsSearched: 1,
    rejected: [],
    deadLetters: [],
  });
});

it('names the rejected row of a key: run, file, line, field and message', async () => {
  const found = await get('/api/entities/catalog/B300', VIEWER);
  expect(found.status).toBe(200);
  expect(found.body).toMatchObject({ key: 'B300', states: [], changes: [], deadLetters: [] });
  expect(found.body.rejected).toEqual([
    {
      runId,
      file: join(h.dir, 'items.csv'),
      line: 4,
      field: 'Unit Price',
      message: expect.stringContaining('twelve'),
      startedAt: expect.any(String),
    },
  ]);
  const out: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      out.push(String(chunk));
      done();
    },
  });
  const env = { FERRY_CONFIG: writeConfigFile(h.dir, h.prefix, h.sim.url) };
  const code = await main(['trace', 'catalog', 'B300'], { stdout: sink, stderr: sink, env });
  const text = out.join('');
  expect(code).toBe(1);
  expect(text).toContain(`Rejected in run ${runId}`);
  expect(text).toContain(`${join(h.dir, 'items.csv')} line 4: Unit Price: expected a decimal`);
  expect(text).not.toContain('Never seen');
  const json: string[] = [];
  const jsonSink = new Writable({
    write(chunk, _enc, done) {
      json.push(String(chunk));
      done();
    },
  });
  await main(['trace', 'catalog', 'B300', '--json'], { stdout: jsonSink, stderr: sink, env });
  expect(JSON.parse(json.join(''))).toEqual(found.body);
  // Kept, by key, as long as the run's record.
  const keys = deliveryKeys(config.redis.prefix);
  expect(await h.redis.ttl(keys.runRejected(runId))).toBeGreaterThan(RETENTION_S - 60);
});

it('shows the rejected row on the trace page, and its key on the run page', async () => {
  const page = async (path: string) => {
    const res = await request(`${url}${path}`, {
      headers: { authorization: `Bearer ${VIEWER}`, accept: 'text/html' },
    });
    expect(res.statusCode).toBe(200);
    return await res.body.text();
  };
  const trace = await page('/entities?pipeline=catalog&key=B300');
  expect(trace).toContain(`Rejected in run ${runId}`);
  expect(trace).toMatch(/items\.csv<\/td>\s*<td>4<\/td>/);
  expect(trace).toContain('<td class="mono path">');
  expect(trace).not.toContain('Never seen');
  // One run searched: said so, not "the last 1 runs".
  expect(trace).toContain('<h2>Rejected rows in the last run</h2>');
  const run = await page(`/runs/${runId}`);
  expect(run).toContain('href="/entities?pipeline=catalog&key=B300"');
});

it("links each change, and the run's page, to the run's trace when traces were exported", async () => {
  // What a run started with traces exported records (test/queue/traces.test.ts sends them).
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  await h.redis.hset(deliveryKeys(config.redis.prefix).run(runId), 'traceId', traceId);
  const found = await get('/api/entities/catalog/00042', VIEWER);
  const changes = found.body.changes as Record<string, unknown>[];
  expect(changes.length).toBeGreaterThan(0); // the product and its prices
  for (const change of changes) {
    expect(change).toMatchObject({
      runId,
      traceId,
      traceUrl: `https://tempo.example/trace/${traceId}`,
    });
  }
  const res = await request(`${url}/entities?pipeline=catalog&key=00042`, {
    headers: { authorization: `Bearer ${VIEWER}`, accept: 'text/html' },
  });
  const page = await res.body.text();
  expect(page).toContain(`<a href="https://tempo.example/trace/${traceId}"`);
  expect(page).toContain(`title="${traceId}"`);
  const res2 = await request(`${url}/runs/${runId}`, {
    headers: { authorization: `Bearer ${VIEWER}`, accept: 'text/html' },
  });
  const runPage = await res2.body.text();
  expect(runPage).toContain(`<a href="https://tempo.example/trace/${traceId}"`);
  const api = await get(`/api/runs/${runId}`, VIEWER);
  expect(api.body.traceId).toBe(traceId);
});

it('lists the dead letters of a key, and a key written with reserved characters', async () => {
  const failed = await get('/api/entities/catalog/A200?runs=5', VIEWER);
  expect(failed.status).toBe(200);
  expect(failed.body.deadLetters).toEqual([
    expect.objectContaining({ runId, operationId: 'products.prices.patch', keys: ['A200'] }),
  ]);
  const odd = await get(`/api/entities/catalog/${encodeURIComponent('A 1/2')}`, VIEWER);
  expect(odd).toMatchObject({ status: 200, body: { key: 'A 1/2', states: [] } });
});

it('refuses a request without a token, and an unknown pipeline', async () => {
  const anonymous = await get('/api/entities/catalog/00042');
  expect(anonymous.status).toBe(401);
  expect(anonymous.body).toMatchObject({ error: { code: 'FERRY_UNAUTHORIZED' } });
  const unknown = await get('/api/entities/nightly-nope/00042', VIEWER);
  expect(unknown.status).toBe(404);
  expect(unknown.body).toMatchObject({ error: { code: 'FERRY_NOT_FOUND' } });
  expect((await get('/api/entities/catalog/00042?runs=0', VIEWER)).status).toBe(400);
});

it('is described in the OpenAPI document', async () => {
  const spec = await get('/api/openapi.json', VIEWER);
  const paths = spec.body.paths as Record<string, unknown>;
  expect(Object.keys(paths)).toContain('/api/entities/{pipeline}/{key}');
});
