import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInterfaceClient } from '../../src/interface/client.js';
import type { InterfaceClient } from '../../src/interface/client-types.js';
import type { InterfaceError } from '../../src/interface/errors.js';
import {
  InProgressError,
  PayloadTooLargeError,
  PermanentHttpError,
  RateLimitedError,
  TransientHttpError,
} from '../../src/interface/errors.js';
import {
  interfaceConfig,
  rejection,
  sendJson,
  startTestServer,
  type TestServer,
} from './client-test-server.js';

let server: TestServer;
let client: InterfaceClient;
const CAP_MS = 30_000;

beforeAll(async () => {
  server = await startTestServer();
  client = createInterfaceClient(interfaceConfig({ baseUrl: server.url, retryAfterCapMs: CAP_MS }));
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** The next answers are `status` with this body and these headers. */
function answer(status: number, body: unknown, headers: Record<string, string> = {}): void {
  server.handler = (_req, res) => sendJson(res, status, body, headers);
}

const put = () => client.call({ operationId: 'products.put', body: [{ externalId: 'p1' }] });

describe('answers that resolve', () => {
  it('resolves a 200 with its parsed JSON body and headers', async () => {
    answer(200, { ok: true }, { 'x-trace': 'abc' });
    const res = await put();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(res.headers['x-trace']).toBe('abc');
  });

  it('resolves a 207 so that the caller reads the per-item results', async () => {
    const results = [
      { externalId: 'p1', status: 200 },
      { externalId: 'p2', status: 422, error: { code: 'VALIDATION_FAILED', message: 'no name' } },
    ];
    answer(207, { results });
    const res = await put();
    expect(res.status).toBe(207);
    expect(res.body).toEqual({ results });
  });

  it('resolves a 404 to a DELETE: the item is already gone', async () => {
    answer(404, { error: { code: 'NOT_FOUND', message: 'gone' } });
    const res = await client.call({ operationId: 'products.delete', body: [{ externalId: 'x' }] });
    expect(res.status).toBe(404);
  });
});

describe('permanent answers', () => {
  it.each([400, 403, 405, 422])(
    '%i is a PermanentHttpError with status, body and headers',
    async (status) => {
      answer(
        status,
        { error: { code: 'VALIDATION_FAILED', message: `bad ${status}` } },
        { 'x-req': 'r1' },
      );
      const error = await rejection(put());
      expect(error).toBeInstanceOf(PermanentHttpError);
      const e = error as PermanentHttpError;
      expect(e.code).toBe('FERRY_HTTP_PERMANENT');
      expect(e.retryable).toBe(false);
      expect(e.status).toBe(status);
      expect(e.context.body).toEqual({
        error: { code: 'VALIDATION_FAILED', message: `bad ${status}` },
      });
      expect(e.context.bodyExcerpt).toContain(`bad ${status}`);
      expect(e.context.headers?.['x-req']).toBe('r1');
      expect(e.message).toContain('products.put (PUT /external/api/products) answered ' + status);
    },
  );

  it('a 404 to a PUT is permanent (unlike a DELETE)', async () => {
    answer(404, { error: { code: 'NOT_FOUND', message: 'no such route' } });
    const error = await rejection(put());
    expect(error).toBeInstanceOf(PermanentHttpError);
    expect((error as PermanentHttpError).status).toBe(404);
  });

  it('a 409 that is not "request in progress" is permanent', async () => {
    answer(409, { error: { code: 'CONFLICT', message: 'version conflict' } });
    expect(await rejection(put())).toBeInstanceOf(PermanentHttpError);
  });

  it('413 is PayloadTooLargeError (split the batch)', async () => {
    answer(413, { error: { code: 'TOO_LARGE', message: 'too large' } });
    const error = await rejection(put());
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect((error as InterfaceError).code).toBe('FERRY_HTTP_PAYLOAD_TOO_LARGE');
  });

  it('keeps only the first 500 characters of a long body as the excerpt', async () => {
    server.handler = (_req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('x'.repeat(2_000));
    };
    const error = (await rejection(put())) as PermanentHttpError;
    expect(error.context.bodyExcerpt).toHaveLength(500);
    expect(error.context.body).toBe('x'.repeat(2_000));
  });
});

describe('transient answers', () => {
  it.each([408, 500, 502, 504])('%i is a TransientHttpError', async (status) => {
    answer(status, { error: { code: 'INTERNAL', message: 'oops' } });
    const error = await rejection(put());
    expect(error).toBeInstanceOf(TransientHttpError);
    expect((error as TransientHttpError).retryable).toBe(true);
    expect((error as TransientHttpError).status).toBe(status);
  });

  it('503 without Retry-After is transient', async () => {
    answer(503, { error: { code: 'INTERNAL', message: 'down' } });
    expect(await rejection(put())).toBeInstanceOf(TransientHttpError);
  });

  it('409 REQUEST_IN_PROGRESS is InProgressError (retryable)', async () => {
    answer(409, { error: { code: 'REQUEST_IN_PROGRESS', message: 'in flight' } });
    const error = await rejection(put());
    expect(error).toBeInstanceOf(InProgressError);
    expect((error as InProgressError).retryable).toBe(true);
  });
});

describe('rate limited answers', () => {
  async function rateLimited(): Promise<RateLimitedError> {
    const error = await rejection(put());
    expect(error).toBeInstanceOf(RateLimitedError);
    return error as RateLimitedError;
  }

  it('429 with Retry-After in seconds', async () => {
    answer(429, { error: { code: 'RATE_LIMITED' } }, { 'retry-after': '7' });
    expect((await rateLimited()).retryAfterMs).toBe(7_000);
  });

  it('429 with Retry-After as an HTTP-date', async () => {
    const at = new Date(Date.now() + 20_000);
    answer(429, { error: { code: 'RATE_LIMITED' } }, { 'retry-after': at.toUTCString() });
    const wait = (await rateLimited()).retryAfterMs;
    // An HTTP-date has whole seconds: the wait is the 20 s minus up to one second (and the trip).
    expect(wait).toBeGreaterThan(15_000);
    expect(wait).toBeLessThanOrEqual(20_000);
  });

  it('caps a long Retry-After (seconds and date) at retryAfterCapMs', async () => {
    answer(429, {}, { 'retry-after': '3600' });
    expect((await rateLimited()).retryAfterMs).toBe(CAP_MS);
    answer(429, {}, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() });
    expect((await rateLimited()).retryAfterMs).toBe(CAP_MS);
  });

  it('429 without Retry-After waits the default second', async () => {
    answer(429, { error: { code: 'RATE_LIMITED' } });
    expect((await rateLimited()).retryAfterMs).toBe(1_000);
  });

  it('503 with Retry-After is rate limited', async () => {
    answer(503, { error: { code: 'INTERNAL' } }, { 'retry-after': '2' });
    const error = await rateLimited();
    expect(error.retryAfterMs).toBe(2_000);
    expect(error.status).toBe(503);
  });
});
