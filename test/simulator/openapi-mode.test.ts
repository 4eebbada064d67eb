/**
 * The simulator playing a described platform (`openapi`), over real HTTP: the description's
 * operations at its paths and nothing else, its security scheme (an API key header, HTTP bearer),
 * its request schemas (400 listing each violation), its maxItems (413), its envelope and DELETE by
 * query parameter, 3.1 type arrays and 3.0 `nullable`, amounts as numbers; the file served as it
 * is; faults as in the default mode; a description that cannot be read refused, naming where.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { operationsOfListing } from '../../src/interface/catalog.js';
import { isFerryError } from '../../src/errors/index.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { call, type CallOptions } from './sim-http.js';

const fixture = (name: string) => resolve(PROJECT_ROOT, 'test/fixtures/openapi', name);
const ENVELOPE = fixture('sim-envelope-apikey-3.1.yaml');
const LISTING_B = fixture('sim-listing-b-3.0.json');

const KEY: CallOptions = { token: null, headers: { 'x-api-key': 'dev-token' } };
const CATEGORIES = '/external/api/categories';
const PRODUCTS = '/external/api/products';

const category = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  name: `Category ${externalId}`,
  ...extra,
});

interface Refusal {
  error: {
    code: string;
    message: string;
    details?: { in: string; name?: string; instancePath: string; message: string }[];
  };
}

describe('a 3.1 description: envelope, API key, maxItems, DELETE by query, amounts as numbers', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ openapi: ENVELOPE, seed: 5 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('serves the described operations only, at their paths', async () => {
    expect(sim.described).toMatchObject({ title: 'Envelope Platform', version: '3.2.0' });
    expect(sim.described?.operations).toEqual([
      'categories.put',
      'customers.details.post',
      'products.get',
      'products.put',
      'products.delete',
      'products.prices.patch',
      'statistics.revenue.get',
      'stores.get',
    ]);
    expect(sim.listing).toBe('A');
    // Ferry's assumed interface has categories.patch; this description does not.
    expect(
      (await call(sim, 'PATCH', CATEGORIES, { ...KEY, body: { categories: [] } })).status,
    ).toBe(404);
    // Declared, but outside the catalog: not played.
    expect((await call(sim, 'GET', '/external/api/health', { token: null })).status).toBe(404);
  });

  it('asks for the API key in X-Api-Key: a bearer token is 401 naming the header', async () => {
    const body = { categories: [category('C1')] };
    const bearer = await call(sim, 'PUT', CATEGORIES, { body });
    expect(bearer.status).toBe(401);
    expect((bearer.body as Refusal).error.message).toBe(
      'the description asks for an API key in header "X-Api-Key"',
    );
    const wrong = await call(sim, 'PUT', CATEGORIES, {
      body,
      token: null,
      headers: { 'x-api-key': 'not-it' },
    });
    expect(wrong.status).toBe(401);
    expect((bearer.body as Refusal).error.message).not.toContain('not-it');
    expect((await call(sim, 'PUT', CATEGORIES, { ...KEY, body })).status).toBe(200);
  });

  it('keeps items of an enveloped body by externalId; null where a 3.1 type array allows it', async () => {
    const body = {
      categories: [category('C2', { parentExternalId: null }), category('C3', { sortIndex: 4 })],
    };
    const answer = await call(sim, 'PUT', CATEGORIES, { ...KEY, body });
    expect(answer.status).toBe(200);
    expect(sim.state('categories')).toEqual(
      expect.arrayContaining([
        category('C2', { parentExternalId: null }),
        category('C3', { sortIndex: 4 }),
      ]),
    );
  });

  it('refuses a body that breaks the schema with 400, each violation with its instancePath', async () => {
    const before = sim.state('categories').length;
    const body = {
      categories: [category('C4', { name: null, colour: 'red' }), { name: 'no key' }],
    };
    const answer = await call(sim, 'PUT', CATEGORIES, { ...KEY, body });
    expect(answer.status).toBe(400);
    const error = (answer.body as Refusal).error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual([
      {
        in: 'body',
        instancePath: '/categories/0/colour',
        message: 'is not a property the schema allows',
      },
      { in: 'body', instancePath: '/categories/0/name', message: 'must be string, got null' },
      {
        in: 'body',
        instancePath: '/categories/1/externalId',
        message: 'required, but missing',
      },
    ]);
    expect(error.message).toContain('/categories/0/colour');
    // Not in its envelope: the schema says what is wrong.
    const bare = await call(sim, 'PUT', CATEGORIES, { ...KEY, body: [category('C5')] });
    expect(bare.status).toBe(400);
    expect((bare.body as Refusal).error.details?.[0]).toMatchObject({ instancePath: '' });
    expect(sim.state('categories')).toHaveLength(before);
  });

  it('answers 413 above the described maxItems (3 categories, 4 products, 3 ids)', async () => {
    const four = { categories: ['a', 'b', 'c', 'd'].map((k) => category(k)) };
    const answer = await call(sim, 'PUT', CATEGORIES, { ...KEY, body: four });
    expect(answer.status).toBe(413);
    expect((answer.body as Refusal).error.message).toContain('at most 3');
    const products = ['1', '2', '3', '4', '5'].map((k) => ({
      externalId: k,
      name: k,
      active: true,
    }));
    expect((await call(sim, 'PUT', PRODUCTS, { ...KEY, body: products })).status).toBe(413);
    expect((await call(sim, 'PUT', PRODUCTS, { ...KEY, body: products.slice(1) })).status).toBe(
      200,
    );
    const ids = '?ids=1&ids=2&ids=3&ids=4';
    expect((await call(sim, 'DELETE', `${PRODUCTS}${ids}`, KEY)).status).toBe(413);
  });

  it('takes prices as JSON numbers, checked on their digits, at the path parameter named id', async () => {
    await call(sim, 'PUT', PRODUCTS, {
      ...KEY,
      body: [{ externalId: 'P1', name: 'P', active: true }],
    });
    const path = `${PRODUCTS}/P1/prices`;
    const ok = await call(sim, 'PATCH', path, {
      ...KEY,
      body: { prices: [{ amount: 0.07, currency: 'NOK' }] },
    });
    expect(ok.status).toBe(200);
    expect(sim.state('prices')).toEqual([
      { productId: 'P1', prices: [{ amount: 0.07, currency: 'NOK' }] },
    ]);
    const bad = await call(sim, 'PATCH', path, {
      ...KEY,
      body: {
        prices: [
          { amount: '12.50', currency: 'NOK' },
          { amount: 1.234, currency: 'XXX' },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect((bad.body as Refusal).error.details?.map((d) => d.instancePath)).toEqual([
      '/prices/1/amount',
      '/prices/0/amount',
      '/prices/1/currency',
    ]);
    const longId = `${PRODUCTS}/${'x'.repeat(21)}/prices`;
    const param = await call(sim, 'PATCH', longId, {
      ...KEY,
      body: { prices: [{ amount: 1, currency: 'NOK' }] },
    });
    expect(param.status).toBe(400);
    expect((param.body as Refusal).error.details).toEqual([
      { in: 'path', name: 'id', instancePath: '', message: expect.stringContaining('at most 20') },
    ]);
  });

  it('deletes by the repeated query parameter ids, which is required', async () => {
    await call(sim, 'PUT', PRODUCTS, {
      ...KEY,
      body: ['D1', 'D2', 'D3'].map((k) => ({ externalId: k, name: k, active: true })),
    });
    expect((await call(sim, 'DELETE', `${PRODUCTS}?ids=D1&ids=D2`, KEY)).status).toBe(200);
    const left = sim.state('products').map((p) => (p as { externalId: string }).externalId);
    expect(left).toContain('D3');
    expect(left).not.toContain('D1');
    expect(left).not.toContain('D2');
    const none = await call(sim, 'DELETE', PRODUCTS, KEY);
    expect(none.status).toBe(400);
    expect((none.body as Refusal).error.details).toEqual([
      { in: 'query', name: 'ids', instancePath: '', message: 'is required' },
    ]);
  });

  it('checks query parameters of reads against their schemas', async () => {
    const zero = await call(sim, 'GET', `${PRODUCTS}?page=0`, KEY);
    expect(zero.status).toBe(400);
    expect((zero.body as Refusal).error.details).toEqual([
      { in: 'query', name: 'page', instancePath: '', message: 'must be >= 1, got 0' },
    ]);
    const page = await call(sim, 'GET', `${PRODUCTS}?page=1`, KEY);
    expect(page.status).toBe(200);
    expect((page.body as { total: number }).total).toBe(sim.state('products').length);
    // A parameter the simulator plays but this read does not declare is refused, naming those it does.
    const undeclared = await call(sim, 'GET', `${PRODUCTS}?page=1&pageSize=2`, KEY);
    expect(undeclared.status).toBe(400);
    expect((undeclared.body as Refusal).error.message).toBe(
      'unknown query parameter "pageSize"; this read takes page',
    );
  });

  it('serves the description: the YAML as written, and the same document as JSON', async () => {
    const yaml = await call(sim, 'GET', '/openapi.yaml', { token: null });
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(yaml.body).toBe(readFileSync(ENVELOPE, 'utf8'));
    const json = await call(sim, 'GET', '/openapi.json', { token: null });
    expect(json.body).toEqual(parse(readFileSync(ENVELOPE, 'utf8')));
  });

  it('keeps fault injection: a fail rate of 1 answers 5xx before anything is validated', async () => {
    sim.setFaults({ failRate: 1 });
    try {
      const answer = await call(sim, 'PUT', CATEGORIES, {
        ...KEY,
        body: { categories: [category('F1')] },
      });
      expect([500, 502, 503]).toContain(answer.status);
    } finally {
      sim.setFaults({ failRate: 0 });
    }
    expect(
      sim.state('categories').some((c) => (c as { externalId: string }).externalId === 'F1'),
    ).toBe(false);
  });
});

describe('a 3.0 description of listing B: bearer, nullable, bodies as bare arrays', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ openapi: LISTING_B, token: 'b-token' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('is listing B: the partner signup is there, the products read is not', async () => {
    expect(sim.listing).toBe('B');
    const signup = await call(sim, 'POST', '/api/partner/signup', {
      token: 'b-token',
      body: { name: 'Partner', email: null },
    });
    expect(signup.status).toBe(201);
    expect((await call(sim, 'GET', PRODUCTS, { token: 'b-token' })).status).toBe(404);
  });

  it('asks for HTTP bearer: an API key header is 401', async () => {
    const answer = await call(sim, 'PUT', CATEGORIES, {
      token: null,
      headers: { 'x-api-key': 'b-token' },
      body: [category('B1', { sortIndex: 1 })],
    });
    expect(answer.status).toBe(401);
    expect((answer.body as Refusal).error.message).toContain('Bearer');
    expect(sim.stats().unauthorized).toBe(1);
  });

  it('allows null where 3.0 says nullable, and only there', async () => {
    const ok = await call(sim, 'PUT', CATEGORIES, {
      token: 'b-token',
      body: [category('B2', { parentExternalId: null, sortIndex: 0 })],
    });
    expect(ok.status).toBe(200);
    const bad = await call(sim, 'PUT', CATEGORIES, {
      token: 'b-token',
      body: [category('B3', { sortIndex: null })],
    });
    expect(bad.status).toBe(400);
    expect((bad.body as Refusal).error.details).toEqual([
      { in: 'body', instancePath: '/0/sortIndex', message: 'must be integer, got null' },
    ]);
  });

  it('amounts are decimal strings here: a JSON number is refused', async () => {
    const product = {
      externalId: 'P9',
      name: 'P',
      handle: 'p-9',
      active: true,
      categoryExternalIds: [],
    };
    expect((await call(sim, 'PUT', PRODUCTS, { token: 'b-token', body: [product] })).status).toBe(
      200,
    );
    const path = `${PRODUCTS}/P9/prices`;
    const number = await call(sim, 'PATCH', path, {
      token: 'b-token',
      body: { prices: [{ amount: 12.5, currency: 'NOK' }] },
    });
    expect(number.status).toBe(400);
    const text = await call(sim, 'PATCH', path, {
      token: 'b-token',
      body: { prices: [{ amount: '12.50', currency: 'NOK' }] },
    });
    expect(text.status).toBe(200);
  });

  it('serves the JSON as written', async () => {
    const json = await call(sim, 'GET', '/openapi.json', { token: null });
    expect(json.status).toBe(200);
    expect(json.body).toEqual(JSON.parse(readFileSync(LISTING_B, 'utf8')));
    const yaml = await call(sim, 'GET', '/openapi.yaml', { token: null });
    expect(parse(yaml.body as string)).toEqual(json.body);
  });
});

describe("Ferry's own assumed description, read from a URL", () => {
  it('plays the default simulator from its /openapi.json: the same operations and rules', async () => {
    const assumed = await startSimulator({});
    const sim = await startSimulator({ openapi: `${assumed.url}/openapi.json` });
    try {
      expect(sim.listing).toBe('A');
      expect(assumed.described).toBeUndefined();
      const ids = operationsOfListing('A').map((o) => o.id);
      expect(sim.described?.operations.slice().sort()).toEqual(ids.sort());
      const product = { externalId: 'U1', name: 'U', vendor: 'V', handle: 'u', active: true };
      const put = await call(sim, 'PUT', PRODUCTS, {
        body: [{ ...product, categoryExternalIds: [] }],
      });
      expect(put.status).toBe(200);
      const prices = `${PRODUCTS}/U1/prices`;
      const text = await call(sim, 'PATCH', prices, {
        body: { prices: [{ amount: '12.50', currency: 'NOK' }] },
      });
      expect(text.status).toBe(200);
      const number = await call(sim, 'PATCH', prices, {
        body: { prices: [{ amount: 12.5, currency: 'NOK' }] },
      });
      expect(number.status).toBe(400);
      expect((number.body as Refusal).error.details).toEqual([
        { in: 'body', instancePath: '/prices/0/amount', message: 'must be string, got 12.5' },
      ]);
    } finally {
      await sim.close();
      await assumed.close();
    }
  });
});

describe('a description that cannot be played', () => {
  it('startSimulator refuses it naming the source and the pointer', async () => {
    const broken = fixture('broken-ref.yaml');
    const error = await startSimulator({ openapi: broken }).catch((e: unknown) => e);
    expect(isFerryError(error) && error.code).toBe('FERRY_OPENAPI_INVALID');
    expect((error as Error).message).toContain(broken);
    expect((error as Error).message).toContain('$ref');
  });

  it('ferry simulator exits 2 with the message, and --listing with --openapi is a usage error', async () => {
    const bad = await ferryHere([
      'simulator',
      '--port',
      '0',
      '--openapi',
      fixture('not-openapi.json'),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not-openapi.json');
    const both = await ferryHere([
      'simulator',
      '--port',
      '0',
      '--listing',
      'B',
      '--openapi',
      ENVELOPE,
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--listing and --openapi');
  });
});
