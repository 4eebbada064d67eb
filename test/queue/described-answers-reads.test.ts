/**
 * Issue 33, answers and reads, end to end on real HTTP: two descriptions in other vendors' styles
 * (Swagger 2.0 with its own error object and page+limit reads; OpenAPI 3.0 with problem+json,
 * 207 results under other names, cursor pages and a Link header), each taken from `ferry interface
 * check` to a delivered run with a refusal (`--reject-keys`) whose dead letter carries the
 * platform's words and pointer, a reconciliation that reads products over several pages, and
 * `ferry call orders.get --all`. The simulator plays each description alone, over TCP; real Redis,
 * an in-process worker.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { AuthConfig, FerryConfig } from '../../src/config/schema.js';
import type { InterfaceCheck } from '../../src/pipeline/contract/interface-check.js';
import type { DeadLetter } from '../../src/runs/dead-letters/dead-letter.js';
import { describedConfig, writeDescribedSetup } from '../helpers/described-platform.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { itemExport } from '../helpers/item-export.js';
import { call } from '../simulator/sim-http.js';
import { followWithWorker, startCatalog, useDeliveryHarness } from './delivery-fixtures.js';

const fixture = (name: string) => resolve(PROJECT_ROOT, 'test/fixtures/openapi', name);
const TOKEN = 'vendor-token';
const REFUSED = '20005';

interface Platform {
  file: string;
  listing: 'A';
  auth: AuthConfig;
  credential: Record<string, string>;
  /** A refusal's content type and how its words and pointers are read by hand. */
  errorType: string;
  words: (body: never) => string;
  pointers: (body: never) => string[];
  /** The largest page the description allows. */
  maxPage: number;
  /** Whether the described 207 results name each item error's pointer. */
  resultPointers: boolean;
}

const PLATFORMS: Record<string, Platform> = {
  'Swagger 2.0, its own error object, page and limit': {
    file: fixture('swagger-2.0-pages.yaml'),
    listing: 'A',
    auth: { type: 'apiKey', header: 'X-Api-Key', key: TOKEN },
    credential: { 'x-api-key': TOKEN },
    errorType: 'application/json',
    words: (b: { message: string }) => b.message,
    pointers: (b: { fields: { field: string }[] }) => b.fields.map((f) => f.field),
    maxPage: 5,
    resultPointers: false,
  },
  'OpenAPI 3.0, problem+json, 207 results under other names, cursor and Link pages': {
    file: fixture('problem-cursor-3.0.yaml'),
    listing: 'A',
    auth: { type: 'bearer', token: TOKEN },
    credential: { authorization: `Bearer ${TOKEN}` },
    errorType: 'application/problem+json',
    words: (b: { detail: string }) => b.detail,
    pointers: (b: { errors: { pointer: string }[] }) => b.errors.map((e) => e.pointer),
    maxPage: 4,
    resultPointers: true,
  },
};

const ITEMS = 12;

const exportRows = () =>
  itemExport(ITEMS, (i) => ({ category: ['SKI', 'JAK', 'TUR'][i % 3]!, price: `${100 + i},05` }));

describe.each(Object.entries(PLATFORMS))('a platform described as: %s', (_label, platform) => {
  let config: FerryConfig;
  let env: NodeJS.ProcessEnv;
  const h = useDeliveryHarness(
    'answers-reads',
    { openapi: platform.file, token: TOKEN, faults: { rejectKeys: [REFUSED] } },
    async (harness) => {
      const setup = writeDescribedSetup(harness, platform, ['catalog.yaml', 'orders-export.yaml']);
      env = setup.env;
      config = await describedConfig(harness, platform, setup.pipelines);
    },
  );

  it('ferry interface check passes the catalog pipeline; pull pins it, diff finds no change', async () => {
    const check = await ferryHere(['interface', 'check', '--json'], { env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect((JSON.parse(check.stdout) as InterfaceCheck).problems).toEqual([]);
    const pull = await ferryHere(['interface', 'pull', '--json'], { env });
    expect(pull.code, pull.stderr).toBe(0);
    const diff = await ferryHere(['interface', 'diff', '--json'], { env });
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({ breaking: [], nonBreaking: [] });
  });

  it("refuses in the described error schema, with the platform's words and pointers", async () => {
    const path = `/external/api/products/${REFUSED}/prices`;
    const rejected = await call(h.sim, 'PATCH', path, {
      token: null,
      headers: platform.credential,
      body: { prices: [{ amount: '1.00', currency: 'NOK' }] },
    });
    expect(rejected.status).toBe(422);
    expect(rejected.headers['content-type']).toContain(platform.errorType);
    expect(platform.words(rejected.body as never)).toContain("rejected by the platform's rule");
    const invalid = await call(h.sim, 'PUT', '/external/api/categories', {
      token: null,
      headers: platform.credential,
      body: [{ externalId: 'C1' }],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers['content-type']).toContain(platform.errorType);
    expect(platform.words(invalid.body as never)).toMatch(/does not fit the description/);
    expect(platform.pointers(invalid.body as never)).toEqual(['/0/name']);
    h.sim.reset();
  });

  it("delivers a run; the refused product's dead letters carry the platform's words and pointer", async () => {
    const file = join(h.dir, 'items.csv');
    writeFileSync(file, exportRows());
    const started = await startCatalog(h.redis, config, file);
    expect(started.plan.errors).toEqual([]);
    const run = await followWithWorker(h.redis, config, started.runId);
    expect(run.operations['products.put']).toMatchObject({
      planned: ITEMS,
      delivered: ITEMS - 1,
    });
    const list = await ferryHere(['dlq', 'list', '--json'], { env });
    const rows = JSON.parse(list.stdout) as { id: string; keys: string[]; error?: string }[];
    expect(rows.map((r) => r.keys)).toEqual([[REFUSED], [REFUSED]]);
    expect(rows.every((r) => r.error?.includes("rejected by the platform's rule"))).toBe(true);
    const letters: DeadLetter[] = [];
    for (const row of rows) {
      const show = await ferryHere(['dlq', 'show', row.id, '--json'], { env });
      letters.push(JSON.parse(show.stdout) as DeadLetter);
    }
    const product = letters.find((l) => l.operationId === 'products.put');
    expect(product?.error).toContain("rejected by the platform's rule");
    if (platform.resultPointers) {
      expect(product?.error).toContain('/externalId');
      expect(product?.errors?.[0]?.pointer).toBe('/externalId');
    }
    expect(product?.message).toContain("rejected by the platform's rule");
    const price = letters.find((l) => l.operationId === 'products.prices.patch');
    expect(price?.status).toBe(422);
    expect(price?.error).toContain("rejected by the platform's rule");
    expect(price?.error).toContain('/path/productId');
    expect(price?.errors?.[0]?.pointer).toBe('/path/productId');
    const products = h.sim.state('products') as { externalId: string }[];
    expect(products).toHaveLength(ITEMS - 1);
  });

  it('reconciles over several pages of the described listing, in its largest page', async () => {
    const before = h.sim.requests().length;
    const out = await ferryHere(['reconcile', 'catalog', '--json'], { env });
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const doc = JSON.parse(out.stdout) as { checked: number; missing: number; unknown: number };
    expect(doc).toMatchObject({ checked: ITEMS - 1, missing: 0, unknown: 0 });
    const reads = h.sim
      .requests()
      .slice(before)
      .filter((r) => r.operationId === 'products.get');
    expect(reads.length).toBe(Math.ceil((ITEMS - 1) / platform.maxPage));
    expect(reads.every((r) => r.status === 200)).toBe(true);
  });

  it('rebuilds state from the platform over the same pages', async () => {
    const before = h.sim.requests().length;
    const out = await ferryHere(
      ['state', 'rebuild', 'catalog', '--from-platform', '--dry-run', '--json'],
      { env },
    );
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ pipeline: 'catalog', entities: ITEMS - 1 });
    const reads = h.sim
      .requests()
      .slice(before)
      .filter((r) => r.operationId === 'products.get');
    expect(reads.length).toBe(Math.ceil((ITEMS - 1) / platform.maxPage));
  });

  it('exports every order over the described pages', async () => {
    h.sim.addOrders(7);
    const orders = h.sim.state('orders') as { id: string }[];
    const out = await ferryHere(
      ['export', 'orders-export', '--out', join(h.dir, 'exports'), '--json'],
      { env },
    );
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const run = JSON.parse(out.stdout) as { status: string; cursor: { after: string } };
    expect(run.status).toBe('succeeded');
    expect(run.cursor.after).toBe(orders[orders.length - 1]!.id);
    const reads = h.sim.requests().filter((r) => r.operationId === 'orders.get');
    expect(reads.length).toBeGreaterThanOrEqual(Math.ceil(orders.length / platform.maxPage));
  });

  it('ferry call orders.get --all follows every page', async () => {
    h.sim.addOrders(11);
    const orders = h.sim.state('orders') as { id: string }[];
    const out = await ferryHere(['call', 'orders.get', '--all', '--json'], { env });
    expect(out.code, out.stdout + out.stderr).toBe(0);
    const all = JSON.parse(out.stdout) as {
      status: number;
      pages: number;
      items: { id: string }[];
    };
    expect(all.status).toBe(200);
    expect(all.items.map((o) => o.id)).toEqual(orders.map((o) => o.id));
    expect(all.pages).toBe(Math.ceil(orders.length / platform.maxPage));
  });

  it('refuses by name a read the listing or the description lacks (exit 2)', async () => {
    const out = await ferryHere(['call', 'products.get', '--all', '--json'], {
      env: { ...env, FERRY_LISTING: 'B' },
    });
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('"products.get" is not in listing B');
    const undescribed = await ferryHere(['call', 'microshops.get', '--all', '--json'], { env });
    expect(undescribed.code).toBe(2);
    expect(undescribed.stderr).toContain(
      `Operation "microshops.get" is not in the platform's description (${platform.file})`,
    );
  });
});
