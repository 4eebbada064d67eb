/**
 * Issue 33 item 9, as a new user would: four descriptions in other vendors' styles, each taken with
 * the `ferry` CLI from the first `ferry interface check` to a delivered run with deletes, a refusal
 * and a read of several pages, against the simulator playing the same description over TCP (what it
 * received, `GET /__sim/requests`, is the proof). Swagger 2.0 (an API key in a header, its own error
 * object, page+limit); OpenAPI 3.0 JSON (allOf, nullable, OAuth2 client credentials with a relative
 * tokenUrl, minor units, bare keys in an envelope, problem+json, cursor pages); 3.1 (type arrays,
 * bare keys, a Link header); 3.0 with the API key in a query parameter and deletes by key in the path.
 * Real Redis; `ferry` in-process with --wait (a local worker).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { AuthConfig } from '../../src/config/schema.js';
import type { InterfaceCheck } from '../../src/pipeline/contract/interface-check.js';
import type { DeadLetter } from '../../src/runs/dead-letters/dead-letter.js';
import type { RequestRecord } from '../../src/simulator/types.js';
import { writeDescribedSetup } from '../helpers/described-platform.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { itemExport } from '../helpers/item-export.js';
import { VENDOR_AUTH } from '../pipeline/helpers.js';
import { useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { call } from '../simulator/sim-http.js';

const fixture = (name: string) => resolve(PROJECT_ROOT, 'test/fixtures/openapi', name);
const TOKEN = 'four-vendors-4711';
const ITEMS = 12;
/** The product whose new price the platform's rule refuses on the second run. */
const REFUSED = '20005';
/** Left out of the second run's export: deleted. */
const GONE = ['20003', '20004'];

interface Vendor {
  file: string;
  listing: 'A' | 'B';
  /** interface.auth as the config file says it. */
  auth: AuthConfig | typeof VENDOR_AUTH;
  /** Item i's currency and its price as the ERP writes it. */
  price(i: number): { currency: string; text: string };
  /** Item i's price body as the platform must receive it, byte for byte. */
  priceBody(i: number): string;
  /** What the first `interface check` names, and the edit of the pipeline that fixes it. */
  firstCheck?: { problems: { code: string; message: string }[]; fix(pipeline: string): string };
  /** The deletes of GONE as the platform must receive them: method, path, body; its answer. */
  deletes: [string, string, string, number][];
  /** Whether the described error schema names each item error's pointer. */
  pointer: boolean;
  /** The read followed over several pages by `ferry call READ --all`, its largest page. */
  read: { operationId: string; pageSize: number; resource: 'products' | 'orders' };
}

/** catalog.yaml with its price amount renamed to the described integer `amountMinor`, guard too. */
function amountMinorCatalog(pipeline: string): string {
  return pipeline
    .replaceAll('field: prices.0.amount,', 'field: prices.0.amountMinor,')
    .replace(/ {14}amount:\n(.*\n)*? {16}required: true\n/, (amount) =>
      amount.replace('amount:', 'amountMinor:').replace(/ {16}(scale|round): .*\n/g, ''),
    );
}

/** The check's fix of the UNITS problem: the amount counted in the currency's minor units. */
const withMinorUnits = (pipeline: string) =>
  pipeline.replace(
    'amountMinor:\n                column: Unit Price\n',
    'amountMinor:\n                column: Unit Price\n                minorUnits: { column: Currency }\n',
  );

const NOK = (i: number) => ({ currency: 'NOK', text: `${100 + i},50` });
const decimalBody = (i: number) => `{"prices":[{"amount":"${100 + i}.50","currency":"NOK"}]}`;

const VENDORS: Record<string, Vendor> = {
  'Swagger 2.0: an API key in a header, its own error object, page and limit': {
    file: fixture('swagger-2.0-pages.yaml'),
    listing: 'A',
    auth: { type: 'apiKey', header: 'X-Api-Key', key: TOKEN },
    price: NOK,
    priceBody: decimalBody,
    deletes: [
      ['DELETE', '/external/api/products', '[{"externalId":"20003"},{"externalId":"20004"}]', 200],
    ],
    pointer: true,
    read: { operationId: 'products.get', pageSize: 5, resource: 'products' },
  },
  'OpenAPI 3.0 JSON: allOf, nullable, OAuth2 (relative tokenUrl), minor units, bare keys, problem+json, cursor':
    {
      file: fixture('vendor-minor-units-3.0.json'),
      listing: 'B',
      auth: VENDOR_AUTH,
      // NOK with øre, JPY without minor units, KWD with three decimals.
      price: (i) =>
        [
          { currency: 'NOK', text: `1 2${i.toString().padStart(2, '0')},50` },
          { currency: 'JPY', text: `${1273 + i}` },
          { currency: 'KWD', text: `${i},275` },
        ][i % 3]!,
      priceBody: (i) =>
        [
          `{"prices":[{"amountMinor":${120_000 + i * 100 + 50},"currency":"NOK"}]}`,
          `{"prices":[{"amountMinor":${1273 + i},"currency":"JPY"}]}`,
          `{"prices":[{"amountMinor":${i * 1000 + 275},"currency":"KWD"}]}`,
        ][i % 3]!,
      firstCheck: {
        problems: [
          {
            code: 'UNITS',
            message:
              'catalog price (products.prices.patch): "prices[].amountMinor" is an integer property and the mapping gives it a decimal (column Unit Price): an amount there is counted in minor units (øre, cents). Fix: give the field minorUnits: {column: COLUMN} (the column holding the ISO 4217 currency code) or minorUnits: {code: NOK}, so 1273.00 NOK is written as 127300',
          },
        ],
        fix: withMinorUnits,
      },
      deletes: [['DELETE', '/external/api/products', '{"externalIds":["20003","20004"]}', 200]],
      pointer: true,
      read: { operationId: 'orders.get', pageSize: 4, resource: 'orders' },
    },
  'OpenAPI 3.1: type arrays, bare keys in an envelope, a Link header, bearer': {
    file: fixture('bare-keys-3.1.yaml'),
    listing: 'A',
    auth: { type: 'bearer', token: TOKEN },
    price: NOK,
    priceBody: decimalBody,
    deletes: [['DELETE', '/external/api/products', '{"externalIds":["20003","20004"]}', 200]],
    pointer: false,
    read: { operationId: 'products.get', pageSize: 5, resource: 'products' },
  },
  'OpenAPI 3.0: the API key in a query parameter, deletes by key in the path, page and per_page': {
    file: fixture('apikey-query-path-3.0.yaml'),
    listing: 'A',
    auth: { type: 'apiKey', query: 'api_key', key: TOKEN },
    price: NOK,
    priceBody: (i) => `{"prices":[{"amount":${100 + i}.50,"currency":"NOK"}]}`,
    deletes: [
      ['DELETE', '/external/api/products/20003', '', 204],
      ['DELETE', '/external/api/products/20004', '', 204],
    ],
    pointer: false,
    read: { operationId: 'products.get', pageSize: 5, resource: 'products' },
  },
};

/** The ERP export: items 20000.. priced by `price`; the keys in `skip` left out. */
function exportRows(price: (i: number) => { currency: string; text: string }, skip: string[] = []) {
  return itemExport(ITEMS, (i) => {
    if (skip.includes(String(20_000 + i))) return undefined;
    const { currency, text } = price(i);
    return { category: ['SKI', 'JAK', 'REG'][i % 3]!, price: text, currency };
  });
}

describe.each(Object.entries(VENDORS))('a platform described as %s', (_label, vendor) => {
  let env: NodeJS.ProcessEnv;
  let pipelineFile: string;
  const h = useDeliveryHarness(
    'four-vendors',
    { openapi: vendor.file, token: TOKEN, keepBodies: true },
    (harness) => {
      const setup = writeDescribedSetup(harness, vendor);
      env = setup.env;
      pipelineFile = join(setup.pipelines, 'catalog.yaml');
      if (vendor.firstCheck) {
        writeFileSync(pipelineFile, amountMinorCatalog(readFileSync(pipelineFile, 'utf8')));
      }
      return Promise.resolve();
    },
  );
  const ferry = (args: string[]) => ferryHere(args, { env });

  /** What the simulator received, as GET /__sim/requests lists it. */
  async function received(): Promise<RequestRecord[]> {
    const answer = await call(h.sim, 'GET', '/__sim/requests', { token: null });
    expect(answer.status).toBe(200);
    return answer.body as RequestRecord[];
  }

  it('goes from the first interface check to runs with deletes, a refusal and a read of several pages', async () => {
    // 1. The check names what does not fit, with its fix; fixed, it finds nothing.
    const first = await ferry(['interface', 'check', '--json']);
    const problems = (JSON.parse(first.stdout) as InterfaceCheck).problems;
    expect(
      problems.map((p) => ({ code: p.code, message: p.message })),
      first.stderr,
    ).toEqual(vendor.firstCheck?.problems ?? []);
    expect(first.code).toBe(vendor.firstCheck ? 1 : 0);
    if (vendor.firstCheck) {
      writeFileSync(pipelineFile, vendor.firstCheck.fix(readFileSync(pipelineFile, 'utf8')));
      const fixed = await ferry(['interface', 'check', '--json']);
      expect(fixed.code, fixed.stdout + fixed.stderr).toBe(0);
      expect((JSON.parse(fixed.stdout) as InterfaceCheck).problems).toEqual([]);
    }
    // A listing other than the description's is named, with what to set.
    const other = vendor.listing === 'A' ? 'B' : 'A';
    const listing = await ferryHere(['interface', 'check'], {
      env: { ...env, FERRY_LISTING: other },
    });
    expect(listing.stdout).toContain(
      `interface.listing is ${other}: set it to ${vendor.listing} (or FERRY_LISTING), else an ` +
        `operation only listing ${vendor.listing} has is refused.`,
    );
    expect((await ferry(['interface', 'check'])).stdout).not.toContain('interface.listing is');

    // 2. Pull pins the description; diff finds no change.
    const pull = await ferry(['interface', 'pull']);
    expect(pull.code, pull.stderr).toBe(0);
    const diff = await ferry(['interface', 'diff', '--json']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({ breaking: [], nonBreaking: [] });

    // 3. Monday: every item created, each price exact as described.
    const monday = join(h.dir, 'monday.csv');
    writeFileSync(monday, exportRows(vendor.price));
    const created = await ferry(['run', 'catalog', '--file', monday, '--wait', '--json']);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    const createdRun = JSON.parse(created.stdout) as {
      operations: Record<string, { planned: number; delivered: number }>;
    };
    expect(createdRun.operations['products.put']).toMatchObject({
      planned: ITEMS,
      delivered: ITEMS,
    });
    const prices = (await received()).filter((r) => r.operationId === 'products.prices.patch');
    expect(prices.map((r) => [decodeURIComponent(r.path.split('/')[4]!), r.body])).toEqual(
      Array.from({ length: ITEMS }, (_, i) => [String(20_000 + i), vendor.priceBody(i)]),
    );

    // 4. Tuesday: two items left the export, one new price refused by the platform's rule.
    h.sim.setFaults({ rejectKeys: [REFUSED] });
    const tuesday = join(h.dir, 'tuesday.csv');
    const refusedIndex = Number(REFUSED) - 20_000;
    writeFileSync(
      tuesday,
      exportRows(
        (i) => (i === refusedIndex ? vendor.price(i + 3) : vendor.price(i)), // same currency
        GONE,
      ),
    );
    const before = (await received()).length;
    const second = await ferry([
      'run',
      'catalog',
      '--file',
      tuesday,
      '--wait',
      '--json',
      '--allow-deletes',
      '2',
    ]);
    h.sim.setFaults({ rejectKeys: [] });
    expect(second.code, second.stdout + second.stderr).toBe(1);
    const secondRun = JSON.parse(second.stdout) as {
      operations: Record<string, { planned: number; delivered: number; failed: number }>;
      deadLetters: { keys: string[]; error?: string }[];
    };
    // The run's report gives the refusal in the platform's words, not a raw excerpt of its answer.
    expect(secondRun.deadLetters.map((d) => [d.keys, d.error])).toEqual([
      [[REFUSED], expect.stringContaining(`"${REFUSED}" is rejected by the platform's rule`)],
    ]);
    expect(secondRun.operations['products.delete']).toMatchObject({ planned: 2, delivered: 2 });
    expect(secondRun.operations['products.prices.patch']).toMatchObject({
      planned: 1,
      failed: 1,
    });
    const tuesdayRequests = (await received()).slice(before);
    const deletes = tuesdayRequests.filter((r) => r.operationId === 'products.delete');
    // Answered as described: 204 No Content where the description says so.
    expect(deletes.map((r) => [r.method, r.path, r.body, r.status])).toEqual(vendor.deletes);
    const products = h.sim.state('products') as { externalId: string }[];
    expect(products.map((p) => p.externalId).sort()).toEqual(
      Array.from({ length: ITEMS }, (_, i) => String(20_000 + i)).filter((k) => !GONE.includes(k)),
    );

    // 5. The refusal's dead letter carries the platform's words and pointer, never the secret.
    const list = await ferry(['dlq', 'list', '--json']);
    const rows = JSON.parse(list.stdout) as { id: string; keys: string[]; error?: string }[];
    expect(rows.map((r) => r.keys)).toEqual([[REFUSED]]);
    const show = await ferry(['dlq', 'show', rows[0]!.id, '--json']);
    const letter = JSON.parse(show.stdout) as DeadLetter;
    expect(letter).toMatchObject({ operationId: 'products.prices.patch', status: 422 });
    expect(letter.error).toContain("rejected by the platform's rule");
    if (vendor.pointer) expect(letter.errors?.[0]?.pointer).toBe('/path/productId');
    expect(show.stdout).not.toContain(TOKEN);
    expect(show.stdout).not.toContain('dev-secret');

    // The platform's rule lifted, the dead letter replayed: the same amount, accepted (a replay
    // writes a number a double holds as the double: 108.50 as 108.5, base/exact-json.ts).
    const replay = await ferry(['dlq', 'replay', rows[0]!.id, '--json']);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    const replayed = (await received()).filter(
      (r) => r.operationId === 'products.prices.patch' && r.status < 300,
    );
    expect(JSON.parse(replayed.at(-1)?.body ?? '')).toEqual(
      JSON.parse(vendor.priceBody(refusedIndex + 3)),
    );

    // 6. A read over several pages, every item of every page.
    const all = await ferry(['call', vendor.read.operationId, '--all', '--json']);
    expect(all.code, all.stdout + all.stderr).toBe(0);
    const read = JSON.parse(all.stdout) as {
      status: number;
      pages: number;
      items: Record<string, string>[];
    };
    const held = h.sim.state(vendor.read.resource) as Record<string, string>[];
    const id = vendor.read.resource === 'orders' ? 'id' : 'externalId';
    expect(read.status).toBe(200);
    expect(read.items.map((item) => item[id])).toEqual(held.map((item) => item[id]));
    expect(read.pages).toBe(Math.ceil(held.length / vendor.read.pageSize));
    expect(read.pages).toBeGreaterThan(1);

    // Reconciliation reads the products over the same pages, where the listing has the read.
    if (vendor.read.resource === 'products') {
      const reconcile = await ferry(['reconcile', 'catalog', '--json']);
      expect(reconcile.code, reconcile.stdout + reconcile.stderr).toBe(0);
      expect(JSON.parse(reconcile.stdout)).toMatchObject({
        checked: ITEMS - GONE.length,
        missing: 0,
        unknown: 0,
      });
    }

    // 7. Nothing sent in a shape or with a credential the description refuses: the only refusal
    // is the platform's rule.
    const refused = (await received()).filter((r) => r.status >= 400);
    expect(refused.map((r) => [r.operationId, r.path, r.status])).toEqual([
      ['products.prices.patch', `/external/api/products/${REFUSED}/prices`, 422],
    ]);
    expect(h.sim.stats().unauthorized).toBe(0);
  });
});
