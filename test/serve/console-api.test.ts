/**
 * `ferry serve`'s API over real TCP, against real Redis and a simulator: roles enforced on the
 * server (401 without a known token, 403 for a viewer on a write), the documents of the CLI,
 * the audit trail, installation-wide metrics that a restart of the console does not lose, and
 * /readyz answering 503 when Redis stops.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { FerryConfig } from '../../src/config/schema.js';
import { main } from '../../src/cli/main.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { REQUEST_BUCKET_MS } from '../../src/runs/metrics/run-requests.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { buildServer } from '../../src/serve/server.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { callConsole, consoleTestConfig, OPERATOR, VIEWER } from './console-fixtures.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

const h = useDeliveryHarness('console', { seed: 21 });

function consoleConfig(prefix = h.prefix, redisUrl?: string): FerryConfig {
  const base = consoleTestConfig(h, {}, prefix);
  return redisUrl ? { ...base, redis: { ...base.redis, url: redisUrl } } : base;
}

/** A console on a free port; closed by the caller. */
async function startConsole(
  config: FerryConfig,
  redis: Redis,
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildServer({ config, redis, logger: quietLogger() });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url };
}

let runId: string;

beforeAll(async () => {
  const config = consoleConfig();
  const worker = await startDeliveryWorker({ config, logger: quietLogger() });
  try {
    const started = await startRun({
      config,
      redis: h.redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(PROJECT_ROOT, 'examples/items.csv') },
    });
    runId = started.runId;
    await followRun(h.redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
  } finally {
    await worker.close();
  }
});

describe('roles', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => ({ app, url } = await startConsole(consoleConfig(), h.redis)));
  afterAll(async () => await app.close());

  it('answers health and readiness without a token', async () => {
    expect(await callConsole(url, '/healthz')).toMatchObject({
      status: 200,
      body: { status: 'ok' },
    });
    expect(await callConsole(url, '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ok' },
    });
  });

  it.each([
    ['no token', undefined],
    ['an unknown token', 'viewer-token-0123456780'],
  ])('refuses %s with 401', async (_case, token) => {
    for (const path of ['/api/runs', '/api/pipelines', '/metrics', '/api/openapi.json']) {
      const answer = await callConsole(url, path, token ? { token } : {});
      expect(answer.status, path).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: 'FERRY_UNAUTHORIZED' } });
    }
  });

  it('lets a viewer read and refuses it every write with 403, changing nothing', async () => {
    expect((await callConsole(url, '/api/runs', { token: VIEWER })).status).toBe(200);
    for (const path of [`/api/runs/${runId}/cancel`, '/api/pipelines/catalog/schedule/pause']) {
      const answer = await callConsole(url, path, { token: VIEWER, method: 'POST' });
      expect(answer.status, path).toBe(403);
      expect(answer.body).toMatchObject({ error: { code: 'FERRY_FORBIDDEN' } });
    }
    expect(await callConsole(url, '/api/audit', { token: VIEWER })).toMatchObject({ body: [] });
  });
});

describe('the API', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => ({ app, url } = await startConsole(consoleConfig(), h.redis)));
  afterAll(async () => await app.close());

  it('lists runs as `ferry runs --json` does, a page at a time', async () => {
    const { body } = await callConsole(url, '/api/runs?pipeline=catalog', { token: VIEWER });
    expect(body).toEqual({
      runs: [
        expect.objectContaining({
          runId,
          pipeline: 'catalog',
          trigger: 'cli',
          status: 'partial',
          deliveredItems: 120,
        }),
      ],
    });
    const out: string[] = [];
    const stdout = { write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
    const env = { ...process.env, FERRY_PREFIX: h.prefix, REDIS_URL: consoleConfig().redis.url };
    expect(await main(['runs', '--pipeline', 'catalog', '--json'], { stdout, env })).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual((body as { runs: unknown[] }).runs);
  });

  it('shows one run as `ferry run --json` prints it; 404 for an unknown one', async () => {
    const { status, body } = await callConsole(url, `/api/runs/${runId}`, { token: VIEWER });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      runId,
      status: 'partial',
      rejected: 5,
      operations: { 'products.put': { planned: 56, delivered: 56 } },
    });
    expect(await callConsole(url, '/api/runs/catalog-nope', { token: VIEWER })).toMatchObject({
      status: 404,
      body: { error: { code: 'FERRY_NOT_FOUND' } },
    });
  });

  it("names a run's version on its page as the time it stands for, the number in the tooltip", async () => {
    const { body } = await callConsole(url, `/api/runs/${runId}`, { token: VIEWER });
    const version = (body as { version: number }).version;
    const page = await callConsole(url, `/runs/${runId}`, { token: VIEWER });
    const at = new Date(version).toISOString().replace('T', ' ').replace('Z', ' UTC');
    expect(page.text).toContain(
      `(version <span class="version" title="version ${version}">${at}</span>)`,
    );
    expect(page.text).not.toMatch(/version \d{13}\)/);
  });

  it('forecasts a running run: the API and its OpenAPI schema, ferry runs, the run page', async () => {
    // A prefix of its own and no worker: the run waits, and its record says what the workers'
    // counters would have written after 20 s of sending a request a second.
    const prefix = uniquePrefix('console-forecast');
    const config = consoleConfig(prefix);
    const own = await startConsole(config, h.redis);
    try {
      const { runId: running } = await startRun({
        config,
        redis: h.redis,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file: join(PROJECT_ROOT, 'examples/items.csv') },
      });
      const keys = deliveryKeys(prefix);
      const measuring = (await callConsole(own.url, `/api/runs/${running}`, { token: VIEWER }))
        .body;
      const planned = (measuring as { stages: { requests: number }[] }).stages.reduce(
        (n, s) => n + s.requests,
        0,
      );
      expect(planned).toBeGreaterThan(20);
      expect(measuring).toMatchObject({ forecast: { remainingRequests: planned } });
      const now = Date.now();
      const fields: Record<string, number> = { sent: 20, sentSince: now - 20_000 };
      for (let t = now - 20_000; t < now; t += 1_000) {
        const field = `rq:${Math.floor(t / REQUEST_BUCKET_MS)}`;
        fields[field] = (fields[field] ?? 0) + 1;
      }
      await h.redis.hset(keys.run(running), fields);

      const { body } = await callConsole(own.url, `/api/runs/${running}`, { token: VIEWER });
      const forecast = (body as { forecast: Record<string, unknown> }).forecast;
      expect(forecast).toMatchObject({ remainingRequests: planned - 20 });
      expect(forecast.requestsPerSecond).toBeGreaterThan(0.9);
      expect(forecast.requestsPerSecond).toBeLessThanOrEqual(1);
      const finish = (Date.parse(forecast.finishAt as string) - now) / 1000;
      expect(finish).toBeGreaterThanOrEqual(planned - 20 - 1);
      expect(finish).toBeLessThan((planned - 20) * 1.1 + 1);
      // The document's other fields pass through the response schema.
      expect(body).toMatchObject({ runId: running, status: 'running', errors: expect.any(Array) });
      const list = (await callConsole(own.url, '/api/runs', { token: VIEWER })).body as {
        runs: { forecast?: unknown }[];
      };
      expect(list.runs[0]?.forecast).toMatchObject({ remainingRequests: planned - 20 });
      const openapi = (await callConsole(own.url, '/api/openapi.json', { token: VIEWER })).body as {
        paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      };
      expect(openapi.paths['/api/runs/{runId}']?.get.responses['200']).toMatchObject({
        content: {
          'application/json': {
            schema: {
              properties: {
                forecast: {
                  properties: { remainingRequests: {}, requestsPerSecond: {}, finishAt: {} },
                },
              },
            },
          },
        },
      });

      const out: string[] = [];
      const stdout = { write: (s: string) => out.push(s) } as unknown as NodeJS.WriteStream;
      const env = { ...process.env, FERRY_PREFIX: prefix, REDIS_URL: config.redis.url };
      expect(await main(['runs'], { stdout, env })).toBe(0);
      expect(out.join('')).toMatch(
        new RegExp(`${planned - 20} requests left at (1|0\\.9\\d)/s, ends \\d{4}-\\d\\d-\\d\\dT`),
      );
      const page = await callConsole(own.url, `/runs/${running}`, { token: VIEWER });
      expect(page.text).toContain('<dt>Forecast</dt>');
      expect(page.text).toMatch(
        /requests left at (1|0\.9\d)\/s: ends <span title="[^"]+">in \d+ (s|min)<\/span>/,
      );
    } finally {
      await own.app.close();
      await deleteKeys(prefix);
    }
  });

  it('cancels a run for an operator, writing who did it to the audit trail; 409 once over', async () => {
    // A prefix of its own (nothing delivered yet) and no worker: the run waits in the queue.
    const prefix = uniquePrefix('console-cancel');
    const config = consoleConfig(prefix);
    const own = await startConsole(config, h.redis);
    try {
      const waiting = await startRun({
        config,
        redis: h.redis,
        logger: quietLogger(),
        pipeline: 'catalog',
        source: { file: join(PROJECT_ROOT, 'examples/items.csv') },
      });
      const path = `/api/runs/${waiting.runId}/cancel`;
      const cancel = await callConsole(own.url, path, { token: OPERATOR, method: 'POST' });
      expect(cancel).toMatchObject({ status: 200, body: { status: 'cancelled', inFlight: 0 } });
      expect(await callConsole(own.url, '/api/audit', { token: VIEWER })).toMatchObject({
        body: [
          { actor: 'alice', action: 'run.cancel', target: waiting.runId, at: expect.any(String) },
        ],
      });
      expect(await callConsole(own.url, path, { token: OPERATOR, method: 'POST' })).toMatchObject({
        status: 409,
        body: { error: { code: 'FERRY_RUN_FINISHED' } },
      });
    } finally {
      await own.app.close();
      await deleteKeys(prefix);
    }
  });

  it('lists pipelines and queues, and describes itself in OpenAPI', async () => {
    const pipelines = (await callConsole(url, '/api/pipelines', { token: VIEWER })).body as Array<{
      name: string;
    }>;
    expect(pipelines.find((p) => p.name === 'catalog')).toMatchObject({
      direction: 'import',
      lane: 'bulk',
      lastRun: { runId, status: 'partial' },
    });
    const queues = (await callConsole(url, '/api/queues', { token: VIEWER })).body as Array<{
      queue: string;
      counts: Record<string, number>;
    }>;
    const bulk = queues.find((q) => q.queue === 'delivery-bulk');
    expect(bulk?.counts).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 0, paused: 0 });
    // The run's jobs, kept for the queue board (delivery.keepCompletedJobs).
    expect(bulk?.counts.completed).toBeGreaterThan(0);
    const openapi = (await callConsole(url, '/api/openapi.json', { token: VIEWER })).body as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/api/runs', '/api/runs/{runId}', '/api/runs/{runId}/cancel']),
    );
  });
});

describe('/metrics', () => {
  it("gives the installation's figures, the same after a restart of the console", async () => {
    const config = consoleConfig();
    let text = '';
    for (let i = 0; i < 2; i++) {
      const { app, url } = await startConsole(config, h.redis);
      try {
        const answer = await callConsole(url, '/metrics', { token: VIEWER });
        expect(answer.status).toBe(200);
        if (i === 1) expect(answer.text).toBe(text);
        text = answer.text;
      } finally {
        await app.close();
      }
    }
    expect(text).toContain(
      'ferry_items_total{pipeline="catalog",platform="default",operation="products.put",outcome="delivered"} 56',
    );
    expect(text).toContain(
      'ferry_runs_total{pipeline="catalog",platform="default",status="partial",kind="sync"} 1',
    );
    expect(text).toContain('ferry_run_active{pipeline="catalog",platform="default"} 0');
    expect(text).toContain('ferry_queue_jobs{queue="delivery-bulk",state="waiting"} 0');
    expect(text).toContain('ferry_dead_letters{pipeline="catalog",platform="default"} 0');
    expect(text).toMatch(
      /ferry_requests_total\{platform="default",operation="products\.prices\.patch",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /ferry_request_duration_seconds_count\{platform="default",operation="products\.put"\} [1-9]/,
    );
    expect(text).not.toContain(OPERATOR);
  });

  it('answers without a token when serve.metricsPublic', async () => {
    const config = consoleConfig();
    const { app, url } = await startConsole(
      { ...config, serve: { ...config.serve, metricsPublic: true } },
      h.redis,
    );
    try {
      expect((await callConsole(url, '/metrics')).status).toBe(200);
      expect((await callConsole(url, '/api/runs')).status).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('readiness', () => {
  it('answers 503 at once while Redis is down, pages and API too, and recovers with it', async () => {
    let server = await startRedisServer();
    const redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined); // it is stopped on purpose
    const { app, url } = await startConsole(consoleConfig(h.prefix, server.url), redis);
    try {
      expect((await callConsole(url, '/readyz')).status).toBe(200);
      expect((await callConsole(url, '/api/runs', { token: VIEWER })).status).toBe(200);
      await server.stop();
      const answer = await callConsole(url, '/readyz');
      expect(answer).toMatchObject({
        status: 503,
        body: { status: 'unavailable', reason: expect.stringContaining('Redis does not answer') },
      });
      expect((await callConsole(url, '/healthz')).status).toBe(200);
      expect(await callConsole(url, '/api/runs', { token: VIEWER })).toMatchObject({
        status: 503,
        body: { error: { code: 'FERRY_REDIS_UNAVAILABLE' } },
      });
      const page = await callConsole(url, '/', { token: VIEWER });
      expect(page.status).toBe(503);
      expect(page.text).toContain('Redis does not answer');

      server = await startRedisServer([], server.port);
      // The console's connections come back on their own backoff (up to 2 s a try): await it.
      let status = 0;
      for (let i = 0; i < 200 && status !== 200; i++) {
        status = (await callConsole(url, '/api/runs', { token: VIEWER })).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(200);
    } finally {
      await app.close();
      redis.disconnect();
      await server.stop();
    }
  });
});

describe('ferry serve', () => {
  it('refuses a host other than loopback without a token', async () => {
    const err: string[] = [];
    const stderr = { write: (s: string) => err.push(s) } as unknown as NodeJS.WriteStream;
    const env: NodeJS.ProcessEnv = { ...process.env, FERRY_PREFIX: h.prefix };
    delete env.FERRY_OPERATOR_TOKEN;
    delete env.FERRY_VIEWER_TOKEN;
    expect(await main(['serve', '--host', '0.0.0.0'], { stderr, env })).toBe(2);
    expect(err.join('')).toContain('will not listen on 0.0.0.0 without a token');
  });
});
