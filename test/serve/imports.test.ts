/**
 * HTTP imports (docs/CONSOLE.md, HTTP imports): a file posted to `POST /api/pipelines/{name}/runs`
 * as the raw body or a multipart part becomes a run (trigger http, started by the token's name);
 * the errors the contract names (401/403, 404, 409 with activeRunId, 413, 415), over real TCP against real
 * Redis and the simulator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { parseRun } from '../../src/runs/run-record.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { buildServer } from '../../src/serve/server.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { consoleTestConfig, OPERATOR, VIEWER } from './console-fixtures.js';

const ITEMS = readFileSync(join(PROJECT_ROOT, 'examples/items.csv'));

const h = useDeliveryHarness('imports', { seed: 31 });
const prefixes: string[] = [];
afterAll(async () => {
  for (const p of prefixes) await deleteKeys(p);
});

/**
 * A multipart body with one file part, written out: undici's FormData hung on Node 24 in the full
 * suite (a FormData of another undici copy is sent without a body: nodejs/undici#5520).
 */
function multipartFile(
  field: string,
  fileName: string,
  type: string,
  content: Buffer,
): { body: Buffer; contentType: string } {
  const boundary = `ferry-test-${Math.random().toString(16).slice(2)}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\n` +
    `Content-Type: ${type}\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A console (and a worker) of its own prefix, so each test starts with no state. */
async function consoleOf(serve: Partial<FerryConfig['serve']> = {}, withWorker = true) {
  const prefix = uniquePrefix('imports');
  prefixes.push(prefix);
  const config = consoleTestConfig(h, serve, prefix);
  const app: FastifyInstance = await buildServer({ config, redis: h.redis, logger: quietLogger() });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const worker: DeliveryWorker | undefined = withWorker
    ? await startDeliveryWorker({ config, logger: quietLogger() })
    : undefined;
  return {
    config,
    url,
    async close() {
      await app.close();
      await worker?.close();
    },
  };
}

async function post(
  url: string,
  path: string,
  body: Buffer | Readable,
  headers: Record<string, string> = {},
  token = OPERATOR,
  method: 'POST' | 'PUT' = 'POST',
): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }> {
  const res = await request(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers },
    body,
  });
  return {
    status: res.statusCode,
    body: (await res.body.json()) as Record<string, unknown>,
    headers: res.headers,
  };
}

describe('an import', () => {
  let c: Awaited<ReturnType<typeof consoleOf>>;
  beforeAll(async () => (c = await consoleOf()));
  afterAll(async () => await c.close());

  it('answers 202 with the run it started, recorded as started by the token over HTTP', async () => {
    const answer = await post(c.url, '/api/pipelines/catalog/runs', ITEMS, {
      'content-type': 'text/csv',
    });
    expect(answer.status).toBe(202);
    const runId = answer.body.runId as string;
    expect(answer.headers.location).toBe(`/api/runs/${runId}`);
    const run = parseRun(await h.redis.hgetall(deliveryKeys(c.config.redis.prefix).run(runId)));
    expect(run).toMatchObject({ pipeline: 'catalog', trigger: 'http', startedBy: 'alice' });
    expect(run!.rows).toBe(61);
    const audit = await h.redis.lrange(deliveryKeys(c.config.redis.prefix).audit, 0, -1);
    expect(audit.map((l) => JSON.parse(l) as unknown)).toContainEqual(
      expect.objectContaining({ actor: 'alice', action: 'run.import', target: runId }),
    );
    await followRun(h.redis, deliveryKeys(c.config.redis.prefix), runId, () => undefined);
  });

  it('with ?wait=true answers once the run ended, with its document', async () => {
    // The same file again: nothing changed, so the run ends as soon as it is planned.
    const answer = await post(c.url, '/api/pipelines/catalog/runs?wait=true', ITEMS, {
      'content-type': 'text/csv; charset=windows-1252',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ pipeline: 'catalog', trigger: 'http', rejected: 5 });
    expect(['succeeded', 'partial']).toContain(answer.body.status);
  });

  it("takes a file PUT with no type (curl -T) as one for the pipeline's own connector", async () => {
    const answer = await post(
      c.url,
      '/api/pipelines/catalog/runs?wait=true',
      ITEMS,
      {},
      OPERATOR,
      'PUT',
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ pipeline: 'catalog', trigger: 'http', rows: 61 });
  });

  it('reads a multipart file of a generic type by its name', async () => {
    const form = multipartFile('file', 'items.csv', 'application/octet-stream', ITEMS);
    const answer = await post(c.url, '/api/pipelines/catalog/runs?wait=true', form.body, {
      'content-type': form.contentType,
    });
    expect(answer).toMatchObject({ status: 200, body: { file: 'items.csv', rows: 61 } });
  });

  it('takes the file from a multipart part named file', async () => {
    const form = multipartFile('file', 'items-tonight.csv', 'text/csv', ITEMS);
    const answer = await post(c.url, '/api/pipelines/catalog/runs?wait=true', form.body, {
      'content-type': form.contentType,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ file: 'items-tonight.csv', trigger: 'http' });
  });
});

describe('refusals', () => {
  let c: Awaited<ReturnType<typeof consoleOf>>;
  beforeAll(async () => (c = await consoleOf({ uploadMaxBytes: 1000 }, false)));
  afterAll(async () => await c.close());

  it('401 without a token, 403 for a viewer', async () => {
    expect(
      (await post(c.url, '/api/pipelines/catalog/runs', ITEMS, {}, 'nope-0123456789')).status,
    ).toBe(401);
    expect(
      (
        await post(
          c.url,
          '/api/pipelines/catalog/runs',
          ITEMS,
          { 'content-type': 'text/csv' },
          VIEWER,
        )
      ).status,
    ).toBe(403);
  });

  it('404 for an unknown pipeline', async () => {
    const answer = await post(c.url, '/api/pipelines/nope/runs', ITEMS, {
      'content-type': 'text/csv',
    });
    expect(answer).toMatchObject({ status: 404, body: { error: { code: 'FERRY_NOT_FOUND' } } });
  });

  it('415 for a type the pipeline does not read', async () => {
    const answer = await post(c.url, '/api/pipelines/catalog/runs', Buffer.from('[]'), {
      'content-type': 'application/json',
    });
    expect(answer).toMatchObject({
      status: 415,
      body: { error: { code: 'FERRY_UNSUPPORTED_MEDIA_TYPE' } },
    });
  });

  it('413 past serve.uploadMaxBytes, whether the length is declared or not', async () => {
    const declared = await post(c.url, '/api/pipelines/catalog/runs', ITEMS, {
      'content-type': 'text/csv',
    });
    expect(declared).toMatchObject({
      status: 413,
      body: { error: { code: 'FERRY_UPLOAD_TOO_LARGE' } },
    });
    // Chunked, with no Content-Length: cut off while it streams to disk.
    const streamed = await post(
      c.url,
      '/api/pipelines/catalog/runs',
      Readable.from([ITEMS.subarray(0, 800), ITEMS.subarray(800)]),
      { 'content-type': 'text/csv' },
    );
    expect(streamed).toMatchObject({
      status: 413,
      body: { error: { code: 'FERRY_UPLOAD_TOO_LARGE' } },
    });
  });

  it('409 with the active run while the pipeline runs', async () => {
    // No worker: the run waits in the queue, and holds the pipeline.
    const waiting = await startRun({
      config: c.config,
      redis: h.redis,
      logger: quietLogger(),
      pipeline: 'catalog',
      source: { file: join(PROJECT_ROOT, 'examples/items.csv') },
    });
    const answer = await post(c.url, '/api/pipelines/catalog/runs', ITEMS.subarray(0, 500), {
      'content-type': 'text/csv',
    });
    expect(answer).toMatchObject({
      status: 409,
      body: { error: { code: 'FERRY_RUN_ACTIVE' }, activeRunId: waiting.runId },
    });
  });
});

describe('an import after Redis lost its data', () => {
  let c: Awaited<ReturnType<typeof consoleOf>>;
  beforeAll(async () => (c = await consoleOf()));
  afterAll(async () => await c.close());

  it('stops with the ways out, and with ?resendAll=true sends it all once', async () => {
    const keys = deliveryKeys(c.config.redis.prefix);
    // What a worker records when it finds Redis restarted empty (installation-epoch.ts).
    await h.redis.hset(keys.dataLoss, {
      previousEpoch: 'epoch-before',
      previousCreatedAt: Date.now() - 60_000,
      detectedAt: Date.now(),
      detectedBy: 'test',
    });
    const stores = readFileSync(join(PROJECT_ROOT, 'examples/stores.csv'));
    const stopped = await post(c.url, '/api/pipelines/stores/runs', stores, {
      'content-type': 'text/csv',
    });
    expect(stopped.status).toBe(409);
    const error = stopped.body.error as { code: string; message: string };
    expect(error.code).toBe('FERRY_STATE_LOST');
    expect(error.message).toContain('/api/pipelines/stores/runs?resendAll=true');
    expect(error.message).toContain('ferry run stores --resend-all');
    expect(h.sim.state('stores')).toHaveLength(0);

    const resent = await post(
      c.url,
      '/api/pipelines/stores/runs?resendAll=true&wait=true',
      stores,
      {
        'content-type': 'text/csv',
      },
    );
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ pipeline: 'stores', status: 'partial', rejected: 2 });
    expect(h.sim.state('stores')).toHaveLength(8);
    const audit = await h.redis.lrange(keys.audit, 0, -1);
    expect(audit.map((l) => JSON.parse(l) as unknown)).toContainEqual(
      expect.objectContaining({ action: 'run.import-resend-all', target: resent.body.runId }),
    );
  });
});
