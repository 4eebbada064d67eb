/**
 * The platform's OpenAPI description: read from files and over HTTP (JSON, YAML with anchors, 3.0
 * and 3.1), refused with source and JSON pointer, matched to the catalog, turned into bindings.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { bindingOrigins, resolveBindings } from '../../src/interface/bindings.js';
import { describedBindings } from '../../src/interface/openapi/described-bindings.js';
import { describedOperations } from '../../src/interface/openapi/described-operations.js';
import { loadDescription, sha256Of } from '../../src/interface/openapi/load-description.js';
import { matchCatalog } from '../../src/interface/openapi/match-catalog.js';
import { OpenApiError } from '../../src/interface/openapi/openapi-error.js';
import { readSource } from '../../src/interface/openapi/read-source.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';

const fixture = (name: string) => resolve(PROJECT_ROOT, 'test/fixtures/openapi', name);
const ENVELOPE = fixture('envelope-apikey-3.1.yaml');
const NULLABLE = fixture('nullable-bearer-3.0.json');
const PRICES = fixture('prices-in-batch-3.0.yaml');

async function refusal(source: string): Promise<OpenApiError> {
  const error = await loadDescription(source).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenApiError);
  return error as OpenApiError;
}

describe('reading a description', () => {
  it('reads OpenAPI 3.1 YAML with anchors and resolves $refs across components', async () => {
    const d = await loadDescription(ENVELOPE);
    expect(d).toMatchObject({ dialect: '3.1', title: 'Platform External API', version: '2.4.0' });
    expect(d.sha256).toBe(sha256Of(readFileSync(ENVELOPE, 'utf8')));
    const ops = describedOperations(d.doc);
    const put = ops.find((o) => o.method === 'PUT' && o.path === '/external/api/categories');
    // requestBodies -> schema -> items $ref -> Category, whose externalId is a YAML alias
    const items = (put?.requestSchema?.properties as Record<string, Record<string, unknown>>)
      .categories?.items as { required: string[]; properties: Record<string, unknown> };
    expect(items.required).toEqual(['externalId', 'title']);
    expect(items.properties.externalId).toEqual({ type: 'string', minLength: 1 });
    const get = ops.find((o) => o.method === 'GET' && o.path === '/external/api/products');
    expect(get?.parameters).toEqual([
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } },
    ]);
    expect(put?.security).toEqual([['ApiKey']]);
    // `security: []` on the operation: open, whatever the global requirement says
    expect(ops.find((o) => o.path === '/external/api/health')?.security).toEqual([]);
  });

  it('reads OpenAPI 3.0 JSON', async () => {
    const d = await loadDescription(NULLABLE);
    expect(d.dialect).toBe('3.0');
    expect(d.version).toBe('1.9.0');
  });

  it('refuses a $ref that leads nowhere, naming the source and the JSON pointer', async () => {
    const e = await refusal(fixture('broken-ref.yaml'));
    expect(e.code).toBe('FERRY_OPENAPI_INVALID');
    expect(e.exitCode).toBe(2);
    expect(e.details.pointer).toBe(
      '/paths/~1external~1api~1products/put/requestBody/content/application~1json/schema/items/$ref',
    );
    expect(e.message).toContain('broken-ref.yaml');
    expect(e.message).toContain('#/components/schemas/Prodcut');
  });

  it('refuses a document that is not OpenAPI, and a missing file', async () => {
    expect((await refusal(fixture('not-openapi.json'))).details.pointer).toBe('/openapi');
    const missing = await refusal(fixture('no-such.yaml'));
    expect(missing.message).toContain('no-such.yaml');
    expect(missing.message).toContain('no such file');
  });
});

describe('a description served over HTTP', () => {
  let server: Server;
  let url: string;
  let requests: Record<string, string | string[] | undefined>[];
  const text = readFileSync(ENVELOPE, 'utf8');
  beforeAll(async () => {
    requests = [];
    server = createServer((req, res) => {
      requests.push(req.headers);
      if (req.url !== '/openapi') {
        res.writeHead(404).end();
        return;
      }
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304).end();
        return;
      }
      // YAML served as text/plain: told apart by content, not by media type
      res.writeHead(200, { etag: '"v1"', 'content-type': 'text/plain' }).end(text);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  it('is read from a URL, and read again conditionally (304: not modified)', async () => {
    const d = await loadDescription(url);
    expect(d.sha256).toBe(sha256Of(text));
    expect(d.validators).toEqual({ etag: '"v1"' });
    const again = await readSource(url, d.validators);
    expect(again).toEqual({ notModified: true });
    expect(requests.at(-1)?.['if-none-match']).toBe('"v1"');
  });

  it('a URL that answers an error is refused with its status', async () => {
    const e = await refusal(`${url}.yaml`);
    expect(e.message).toBe(`${url}.yaml: answered HTTP 404, expected 200`);
  });
});

describe('matching the catalog', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, listing: 'B', seed: 1 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('Ferry’s own description of listing B (from the simulator) matches all of B', async () => {
    const d = await loadDescription(`${sim.url}/openapi.json`);
    const m = matchCatalog(describedOperations(d.doc));
    expect(m.listing).toBe('B');
    expect([...m.matched.keys()]).toContain('partner.signup.post');
    expect(m.missing.map((o) => o.id).sort()).toEqual(
      ['customers.details.post', 'products.get', 'statistics.revenue.get', 'stores.get'].sort(),
    );
    expect(m.extra).toEqual([]);
  });

  it('matches by method and path shape whatever the parameter names; says the listing', async () => {
    const m = matchCatalog(describedOperations((await loadDescription(ENVELOPE)).doc));
    expect(m.listing).toBe('A');
    expect(m.matched.get('products.prices.patch')?.path).toBe('/external/api/products/{id}/prices');
    expect(m.matched.has('products.patch')).toBe(false);
    expect(m.extra.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /external/api/health']);
    const b = matchCatalog(describedOperations((await loadDescription(NULLABLE)).doc));
    expect(b.listing).toBe('B');
  });

  it('neither listing when it has operations of both, or the distinguishing ones of none', async () => {
    const d = await loadDescription(NULLABLE);
    const ops = describedOperations(d.doc);
    const withA = [...ops, { ...ops[0]!, method: 'GET' as const, path: '/external/api/stores' }];
    expect(matchCatalog(withA).listing).toBeNull();
    const none = ops.filter((o) => o.path !== '/api/partner/signup');
    expect(matchCatalog(none).listing).toBeNull();
  });
});

describe('bindings from the description', () => {
  it('takes the envelope, maxItems, delete by query parameter and the path from it', async () => {
    const m = matchCatalog(describedOperations((await loadDescription(ENVELOPE)).doc));
    const described = describedBindings(m);
    expect(described['categories.put']).toEqual({ envelope: 'categories', maxItems: 50 });
    expect(described['products.put']).toEqual({ maxItems: 25 });
    expect(described['products.delete']).toEqual({
      deleteStyle: 'query',
      deleteQueryParam: 'ids',
      maxItems: 40,
    });
    // the description's path, its parameter renamed to the catalog's: the URL is the same
    expect(described['products.prices.patch']).toEqual({
      path: '/external/api/products/{productId}/prices',
    });
    const bindings = resolveBindings({}, described);
    expect(bindings.get('categories.put')).toMatchObject({ body: 'items', envelope: 'categories' });
    expect(bindings.get('products.delete')).toMatchObject({ body: 'none', maxItems: 40 });
    expect(bindings.get('stores.put')).toMatchObject({ maxItems: 100, envelope: undefined });
  });

  it('lets products items carry prices where the item schema has them (pricesInBatch)', async () => {
    const described = describedBindings(
      matchCatalog(describedOperations((await loadDescription(PRICES)).doc)),
    );
    expect(described['products.put']).toEqual({ maxItems: 100, pricesInBatch: true });
    expect(described['categories.put']).toEqual({ maxItems: 100 });
    expect(resolveBindings({}, described).get('products.put')?.pricesInBatch).toBe(true);
    // Config overrides it as any setting; the ENVELOPE fixture's products have no prices.
    const off = { 'products.put': { pricesInBatch: false } };
    expect(resolveBindings(off, described).get('products.put')?.pricesInBatch).toBe(false);
    const envelope = describedBindings(
      matchCatalog(describedOperations((await loadDescription(ENVELOPE)).doc)),
    );
    expect(resolveBindings({}, envelope).get('products.put')?.pricesInBatch).toBe(false);
  });

  it('the config still overrides, setting by setting, and each origin is told', async () => {
    const m = matchCatalog(describedOperations((await loadDescription(ENVELOPE)).doc));
    const described = describedBindings(m);
    const configured = { 'products.put': { maxItems: 10 }, 'products.delete': { maxBytes: 5000 } };
    const bindings = resolveBindings(configured, described);
    expect(bindings.get('products.put')?.maxItems).toBe(10);
    expect(bindings.get('products.delete')).toMatchObject({
      deleteQueryParam: 'ids',
      maxBytes: 5000,
    });
    const origins = bindingOrigins(configured, described);
    expect(origins.get('products.put')).toMatchObject({ maxItems: 'config', keyField: 'default' });
    expect(origins.get('products.delete')).toMatchObject({
      deleteQueryParam: 'description',
      maxBytes: 'config',
    });
  });
});
