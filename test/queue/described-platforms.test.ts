/**
 * Issue 22's promise, end to end on real HTTP: with only a platform's published description and an
 * ERP export, Ferry's catalog pipeline passes `ferry interface check`, every payload is validated
 * before it leaves, and the simulator playing that same description (`openapi`) refuses nothing:
 * categories, products, prices and deletes arrive in the shape each description states. Three
 * descriptions that differ from Ferry's assumed interface as real platforms do (an object envelope
 * and an API key, listing B with 3.0 nullable, prices inside product items). Real Redis, an
 * in-process worker, the simulator over TCP.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { AuthConfig, FerryConfig } from '../../src/config/schema.js';
import type { InterfaceCheck } from '../../src/pipeline/contract/interface-check.js';
import type { Plan } from '../../src/pipeline/types.js';
import { describedConfig, writeDescribedSetup } from '../helpers/described-platform.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { itemExport } from '../helpers/item-export.js';
import { call } from '../simulator/sim-http.js';
import { deliverCatalog, useDeliveryHarness } from './delivery-fixtures.js';

const fixture = (name: string) => resolve(PROJECT_ROOT, 'test/fixtures/openapi', name);

interface Platform {
  file: string;
  listing: 'A' | 'B';
  auth: AuthConfig;
  /** Headers of a request made by hand with the credential the description asks for. */
  credential: Record<string, string>;
  /** The same credential in the wrong scheme. */
  wrongScheme: Record<string, string>;
  /** A price amount as the platform keeps it. */
  amount: (text: string) => unknown;
  /** Whether prices travel inside the product items. */
  pricesInBatch: boolean;
  /** Most items in one request, as described. */
  maxItems: { categories: number; products: number };
  /** The categories' envelope, if any; whether deletes go by query parameter. */
  envelope?: string;
  deleteByQuery: boolean;
}

const TOKEN = 'described-token';
const bearer = { authorization: `Bearer ${TOKEN}` };
const apiKey = { 'x-api-key': TOKEN };

const PLATFORMS: Record<string, Platform> = {
  'object envelope, maxItems 3 and 4, DELETE by ?ids=, amounts as numbers, API key (3.1)': {
    file: fixture('sim-envelope-apikey-3.1.yaml'),
    listing: 'A',
    auth: { type: 'apiKey', header: 'X-Api-Key', key: TOKEN },
    credential: apiKey,
    wrongScheme: bearer,
    amount: Number,
    pricesInBatch: false,
    maxItems: { categories: 3, products: 4 },
    envelope: 'categories',
    deleteByQuery: true,
  },
  'listing B, bare arrays, 3.0 nullable, handles by pattern, HTTP bearer (3.0 JSON)': {
    file: fixture('sim-listing-b-3.0.json'),
    listing: 'B',
    auth: { type: 'bearer', token: TOKEN },
    credential: bearer,
    wrongScheme: apiKey,
    amount: (text) => text,
    pricesInBatch: false,
    maxItems: { categories: 20, products: 20 },
    deleteByQuery: false,
  },
  'prices inside product items (3.0 YAML)': {
    file: fixture('prices-in-batch-3.0.yaml'),
    listing: 'A',
    auth: { type: 'bearer', token: TOKEN },
    credential: bearer,
    wrongScheme: apiKey,
    amount: (text) => text,
    pricesInBatch: true,
    maxItems: { categories: 100, products: 100 },
    deleteByQuery: false,
  },
};

const CATEGORIES = ['SKI', 'JAK', 'REG', 'SKO', 'TUR'];
const ITEMS = 12;

/** The ERP export: item i in category i mod 5, priced `base + i` kroner and 5 øre. */
function exportRows(base: number, skip: number[] = []): string {
  return itemExport(ITEMS, (i) => {
    if (skip.includes(i)) return undefined;
    const category = CATEGORIES[i % CATEGORIES.length]!;
    return {
      category,
      parent: category === 'REG' ? 'JAK' : '',
      sort: i % 5,
      description2: i % 2 ? 'Size M' : '',
      gtin: i % 3 === 0 ? '' : String(7_000_000_000_000 + i),
      currency: i % 4 === 0 ? 'EUR' : 'NOK',
      price: `${base + i},05`,
    };
  });
}

describe.each(Object.entries(PLATFORMS))('a platform described as: %s', (_label, platform) => {
  let config: FerryConfig;
  let env: NodeJS.ProcessEnv;
  const h = useDeliveryHarness(
    'described',
    { openapi: platform.file, token: TOKEN, keepBodies: true },
    async (harness) => {
      const setup = writeDescribedSetup(harness, platform);
      env = setup.env;
      config = await describedConfig(harness, platform, setup.pipelines);
    },
  );

  /** Runs the catalog on `rows` to its end; its plan. */
  async function run(name: string, rows: string): Promise<Plan> {
    const file = join(h.dir, name);
    writeFileSync(file, rows);
    const { plan } = await deliverCatalog(h.redis, config, file);
    expect(plan.errors).toEqual([]);
    return plan;
  }

  it('ferry interface check passes the catalog pipeline', async () => {
    const check = await ferryHere(['interface', 'check', '--json'], { env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    const result = JSON.parse(check.stdout) as InterfaceCheck;
    expect(result.problems).toEqual([]);
    expect(result.pipelines).toEqual(['catalog']);
  });

  it('delivers an ERP export and its changes with no request refused, in the described shape', async () => {
    const first = await run('monday.csv', exportRows(100));
    expect(first.operations['products.put']?.items).toBe(ITEMS);
    // Item 3 left the export; items 1 and 2 changed price.
    const second = await run(
      'tuesday.csv',
      exportRows(100, [3]).replace(';101,05;', ';111,05;').replace(';102,05;', ';122,05;'),
    );
    expect(second.deletes).toBe(1);

    const refused = h.sim.requests().filter((r) => r.status >= 400);
    expect(refused).toEqual([]);
    const stats = h.sim.stats();
    expect({
      rejected: stats.rejected,
      unauthorized: stats.unauthorized,
      notFound: stats.notFound,
    }).toEqual({
      rejected: 0,
      unauthorized: 0,
      notFound: 0,
    });

    const categories = h.sim.state('categories') as { externalId: string; name: string }[];
    expect(categories.map((c) => c.externalId).sort()).toEqual([...CATEGORIES].sort());
    const products = h.sim.state('products') as { externalId: string }[];
    const keys = Array.from({ length: ITEMS }, (_, i) => String(20_000 + i)).filter(
      (k) => k !== '20003',
    );
    expect(products.map((p) => p.externalId).sort()).toEqual(keys);

    const prices = new Map(
      (
        h.sim.state('prices') as {
          productId: string;
          prices: { amount: unknown; currency: string }[];
        }[]
      ).map((p) => [p.productId, p.prices]),
    );
    expect(prices.has('20003')).toBe(false);
    expect(prices.get('20000')).toEqual([{ amount: platform.amount('100.05'), currency: 'EUR' }]);
    expect(prices.get('20001')).toEqual([{ amount: platform.amount('111.05'), currency: 'NOK' }]);
    expect(prices.get('20002')).toEqual([{ amount: platform.amount('122.05'), currency: 'NOK' }]);
    expect(prices.size).toBe(ITEMS - 1);
    const sent = (id: string) => h.sim.requests().filter((r) => r.operationId === id);
    const most = (id: string) => Math.max(...sent(id).map((r) => r.items));
    expect(most('categories.put')).toBe(Math.min(platform.maxItems.categories, CATEGORIES.length));
    expect(most('products.put')).toBe(Math.min(platform.maxItems.products, ITEMS));
    for (const r of sent('categories.put')) {
      expect(r.body?.startsWith(platform.envelope ? `{"${platform.envelope}":[` : '[')).toBe(true);
    }
    expect(sent('products.delete').map((r) => r.body === '')).toEqual([platform.deleteByQuery]);
    const priceRequests = sent('products.prices.patch');
    expect(priceRequests.length === 0).toBe(platform.pricesInBatch);
  });

  it('refuses a wrong payload sent by hand with 400 and the details, and the wrong scheme with 401', async () => {
    const path = config.interface.bindings['products.put']?.path ?? '/external/api/products';
    const wrong = await call(h.sim, 'PUT', path, {
      token: null,
      headers: platform.credential,
      body: [{ externalId: 'X1', name: 7, active: 'yes' }],
    });
    expect(wrong.status).toBe(400);
    const details = (wrong.body as { error: { details: { instancePath: string }[] } }).error
      .details;
    expect(details.map((d) => d.instancePath)).toEqual(
      expect.arrayContaining(['/0/name', '/0/active']),
    );

    const scheme = await call(h.sim, 'PUT', path, {
      token: null,
      headers: platform.wrongScheme,
      body: [],
    });
    expect(scheme.status).toBe(401);
  });
});
