/**
 * A read's pages followed as its binding's paging says (src/interface/read-pages.ts), against a
 * real node:http server: a Link header with other relations around rel="next", a next URL in the
 * answer, and the guards against a listing that never ends (the same cursor twice, a page limit).
 * The platform's words of a refusal read where the description says, else where they usually are.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PagingConfig } from '../../src/config/schema.js';
import { refusalWords } from '../../src/interface/answer-words.js';
import { createInterfaceClient } from '../../src/interface/client.js';
import { readPages, ReadPagesError } from '../../src/interface/read-pages.js';
import { configSchema } from '../../src/config/schema.js';
import {
  interfaceConfig,
  rejection,
  sendJson,
  startTestServer,
  type TestServer,
} from './client-test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const DELIVERY = configSchema.parse({}).delivery;

async function readAll(paging: PagingConfig, maxPages?: number) {
  const bindings = { 'orders.get': { paging } };
  const client = createInterfaceClient(interfaceConfig({ baseUrl: server.url, bindings }));
  try {
    const pages = [];
    const read = { client, delivery: DELIVERY, operationId: 'orders.get', pageSize: 2 };
    for await (const page of readPages({ ...read, ...(maxPages ? { maxPages } : {}) })) {
      pages.push(page.items);
    }
    return pages;
  } finally {
    await client.close();
  }
}

const query = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('pages followed as described', () => {
  it('follows rel="next" among other relations of a Link header until there is none', async () => {
    server.requests.length = 0;
    server.handler = (req, res) => {
      const at = Number(query(req.url).after ?? 0);
      const link =
        at < 4
          ? `</external/api/orders?after=${at + 2}&size=2>; rel="next", </x?after=0>; rel="first"`
          : '</x?after=0>; rel="first"';
      sendJson(res, 200, [at + 1, at + 2], { link });
    };
    const pages = await readAll({ items: '', link: true, size: 'size', cursor: 'after' });
    expect(pages).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(server.requests.map((r) => query(r.url))).toEqual([
      { size: '2' },
      { after: '2', size: '2' },
      { after: '4', size: '2' },
    ]);
  });

  it('follows a next URL in the answer, and a cursor by its parameter', async () => {
    server.handler = (req, res) => {
      const page = Number(query(req.url).p ?? 1);
      const next = page < 3 ? `https://elsewhere.example/orders?p=${page + 1}` : null;
      sendJson(res, 200, { records: [page], links: { next } });
    };
    expect(await readAll({ items: 'records', next: 'links.next' })).toEqual([[1], [2], [3]]);
    server.handler = (req, res) => {
      const cursor = query(req.url).cursor ?? '';
      sendJson(res, 200, { data: [cursor.length], next: cursor.length < 2 ? `${cursor}x` : '' });
    };
    expect(await readAll({ items: 'data', next: 'next', cursor: 'cursor' })).toEqual([
      [0],
      [1],
      [2],
    ]);
  });

  it('stops a cursor given twice, and a listing past the page limit, naming them', async () => {
    server.handler = (_req, res) => sendJson(res, 200, { data: [1], nextCursor: 'same' });
    const loop = await rejection(readAll({ items: 'data', next: 'nextCursor', cursor: 'c' }));
    expect(loop).toBeInstanceOf(ReadPagesError);
    expect(loop.message).toBe(
      'orders.get, page 2: the platform asked for the same next page twice ({"c":"same"}): ' +
        'following it would never end',
    );
    server.handler = (req, res) => {
      sendJson(res, 200, { data: [1], nextCursor: `${query(req.url).c ?? ''}+` });
    };
    const endless = await rejection(readAll({ items: 'data', next: 'nextCursor', cursor: 'c' }, 5));
    expect(endless.message).toBe(
      'orders.get, page 5: more than 5 pages: stopped, as a listing that never ends would not',
    );
  });

  it('names an answer without its items', async () => {
    server.handler = (_req, res) => sendJson(res, 200, { rows: [] });
    const error = await rejection(readAll({ items: 'data', page: 'page' }));
    expect((error as ReadPagesError).code).toBe('FERRY_READ_PAGES');
    expect(error.message).toBe('orders.get, page 1: the answer is not {data: [...]}');
  });
});

describe("a refusal's words", () => {
  it('reads detail, else title, else message, and each item error with its pointer', () => {
    const problem = {
      type: 'about:blank',
      title: 'Invalid',
      status: 422,
      detail: 'amount must be positive',
      errors: [{ pointer: '/0/amount', detail: 'must be >= 0' }],
    };
    expect(refusalWords(problem, {})).toEqual({
      words: 'amount must be positive',
      errors: [{ pointer: '/0/amount', message: 'must be >= 0' }],
    });
    expect(refusalWords({ title: 'Invalid' }, {}).words).toBe('Invalid');
    expect(refusalWords({ error: { code: 'X', message: 'nope' } }, {}).words).toBe('nope');
    const own = { errorText: 'bad', violations: [{ loc: 'name', why: 'too long' }] };
    const answers = { words: ['errorText'], errors: 'violations', pointer: 'loc' };
    expect(refusalWords(own, answers)).toEqual({
      words: 'bad',
      errors: [{ pointer: 'name' }],
    });
  });
});
