/**
 * The console's errors come from one table (src/errors/error-codes.ts): every code has a status;
 * an upload the connector cannot read answers 4xx naming the uploaded file's own name, never 500
 * nor a server path; and a Redis that stalls (CLIENT PAUSE) gets a deadline: 503
 * FERRY_REDIS_UNAVAILABLE while it is still paused.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERRORS, httpStatusOf } from '../../src/errors/index.js';
import { buildServer } from '../../src/serve/server.js';
import { startRedisServer } from '../helpers/redis-server.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { consoleTestConfig, OPERATOR, VIEWER } from './console-fixtures.js';

const h = useDeliveryHarness('console-errors', { seed: 41 });
const prefix = uniquePrefix('console-errors');
afterAll(async () => await deleteKeys(prefix));

describe('the error table', () => {
  it('gives every code an HTTP status of 4xx or 5xx', () => {
    expect(ERROR_CODES.length).toBeGreaterThan(40);
    for (const code of ERROR_CODES) {
      const status = httpStatusOf(code);
      expect({ code, status: Number.isInteger(status) && status >= 400 && status < 600 }).toEqual({
        code,
        status: true,
      });
    }
    expect(Object.keys(ERRORS)).toEqual(ERROR_CODES);
  });

  it('is the one docs/CONSOLE.md shows: every code in the row of its status', () => {
    const doc = readFileSync(new URL('../../docs/CONSOLE.md', import.meta.url), 'utf8');
    const table = /^\| status +\| codes +\|\n(?:\|.*\n)+/m.exec(doc)?.[0] ?? '';
    const documented = new Map<string, number>();
    for (const [, status, codes] of table.matchAll(/^\| (\d{3}) +\| (.*)\|$/gm)) {
      for (const [, code] of (codes as string).matchAll(/`(FERRY_[A-Z_0-9]+)`/g)) {
        documented.set(code as string, Number(status));
      }
    }
    expect(Object.fromEntries(documented)).toEqual(
      Object.fromEntries(ERROR_CODES.map((code) => [code, httpStatusOf(code)])),
    );
  });

  it('answers input errors 4xx, Redis 503, and the console’s own codes as declared', () => {
    for (const code of [
      'FERRY_CONNECTOR',
      'FERRY_NO_RECORDS',
      'FERRY_SOURCE',
      'FERRY_INPUT_INVALID',
    ] as const) {
      expect([400, 415, 422]).toContain(httpStatusOf(code));
    }
    expect(httpStatusOf('FERRY_REDIS_UNAVAILABLE')).toBe(503);
    expect(httpStatusOf('FERRY_UNAUTHORIZED')).toBe(401);
    expect(httpStatusOf('FERRY_FORBIDDEN')).toBe(403);
    expect(httpStatusOf('FERRY_UNSUPPORTED_MEDIA_TYPE')).toBe(415);
  });
});

describe('uploads the connector cannot read', () => {
  let app: FastifyInstance;
  afterAll(async () => await app?.close());

  async function upload(name: string, type: string, body: Buffer) {
    app ??= await buildServer({
      config: consoleTestConfig(h, {}, prefix),
      redis: h.redis,
      logger: quietLogger(),
    });
    const boundary = 'ferryboundary';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      body,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return await app.inject({
      method: 'POST',
      url: '/api/pipelines/catalog/runs',
      headers: {
        authorization: `Bearer ${OPERATOR}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    });
  }

  it.each([
    ['an XML file', 'nightly.csv', Buffer.from('<?xml version="1.0"?><items><item/></items>\n')],
    ['a binary file', 'nightly.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0, 0xff, 0xfe])],
    ['a header-only file', 'nightly.csv', Buffer.from('No.;Description;Unit Price\r\n')],
  ])('%s answers 4xx with the code, naming the uploaded file', async (_what, name, body) => {
    const answer = await upload(name, 'text/csv', body);
    expect([400, 415, 422]).toContain(answer.statusCode);
    const error = (answer.json() as { error: { code: string; message: string } }).error;
    expect(error.code).toMatch(/^FERRY_/);
    expect(error.message).toContain(name);
    expect(answer.body).not.toContain('uploads');
    expect(answer.body).not.toContain(h.dir);
  });
});

/** Far longer than the four 300 ms deadlines below. */
const PAUSE_MS = 8_000;

describe('a deadline on Redis reads', () => {
  it('answers 503 FERRY_REDIS_UNAVAILABLE while Redis is paused, and 200 once it is not', async () => {
    const server = await startRedisServer();
    const redis = new Redis(server.url);
    const admin = new Redis(server.url);
    const base = consoleTestConfig(h, { redisTimeoutMs: 300 }, prefix);
    const config = { ...base, redis: { ...base.redis, url: server.url } };
    const app = await buildServer({ config, redis, logger: quietLogger() });
    try {
      const get = async (url: string) =>
        await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${VIEWER}` } });
      const first = await get('/api/runs');
      expect(first.statusCode, first.body).toBe(200);
      await admin.call('CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL');
      for (const url of ['/api/runs', '/api/queues', '/api/dead-letters', '/']) {
        const answer = await get(url);
        expect({ url, status: answer.statusCode }).toEqual({ url, status: 503 });
        if (url.startsWith('/api')) {
          expect(answer.json()).toMatchObject({ error: { code: 'FERRY_REDIS_UNAVAILABLE' } });
        }
      }
      // Each answered within its 300 ms deadline, long before the pause ends; once it has, reads work.
      await until(
        'reads answer again once the pause ends',
        async () => (await get('/api/runs')).statusCode === 200,
      );
    } finally {
      await app.close();
      redis.disconnect();
      admin.disconnect();
      await server.stop();
    }
  }, 120_000);
});
