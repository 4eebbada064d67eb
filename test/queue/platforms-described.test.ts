/**
 * Two shops whose descriptions differ (docs/PLATFORMS.md), over TCP: `default` is Ferry's assumed
 * interface (a price's amount a decimal), `vendor` a simulator playing a vendor's description whose
 * amounts are integers in minor units (test/fixtures/openapi/vendor-minor-units-3.0.json, OAuth2,
 * listing B). One price pipeline fans out to both, vendor's price field overridden with
 * `minorUnits`: each shop receives the amount in its own shape, exactly, and neither is sent off by
 * a factor of a hundred.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { configOnlyEnv, ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { VENDOR_AUTH } from '../pipeline/helpers.js';
import { call } from '../simulator/sim-http.js';
import { useDeliveryHarness } from './delivery-fixtures.js';

const DESCRIPTION = resolve(PROJECT_ROOT, 'test/fixtures/openapi/vendor-minor-units-3.0.json');

const price = (amount: Record<string, unknown>, property: string) => ({
  array: [
    {
      object: {
        [property]: { column: 'Price', type: 'decimal', decimalSeparator: ',', ...amount },
        currency: { column: 'Currency', transform: 'uppercase' },
      },
    },
  ],
});

const h = useDeliveryHarness(
  'platforms-described',
  { openapi: DESCRIPTION, token: 'vendor-token', keepBodies: true },
  () => Promise.resolve(),
);
let plain: RunningSimulator;
let configFile = '';

beforeAll(async () => {
  plain = await startSimulator({ port: 0, seed: 21, keepBodies: true });
  const pipelines = join(h.dir, 'pipelines');
  mkdirSync(pipelines, { recursive: true });
  writeFileSync(
    join(pipelines, 'prices.yaml'),
    stringify({
      source: { connector: 'csv', options: { delimiter: ';' } },
      mode: 'snapshot',
      platforms: ['default', 'vendor'],
      entities: [
        {
          name: 'product',
          operations: { upsert: 'products.put' },
          key: 'No.',
          fields: {
            name: 'Description',
            handle: { template: 'p-{No.}' },
            active: { value: true },
            categoryExternalIds: { value: [] },
            vendor: { value: 'Fjell' },
          },
        },
        {
          name: 'price',
          operations: { upsert: 'products.prices.patch' },
          key: 'No.',
          sendWithNew: 'product',
          fields: { prices: price({ scale: 2 }, 'amount') },
        },
      ],
      overrides: {
        vendor: {
          fields: { 'price.prices': price({ minorUnits: { column: 'Currency' } }, 'amountMinor') },
        },
      },
    }),
  );
  configFile = join(h.dir, 'ferry.yaml');
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix: h.prefix },
      interface: { baseUrl: plain.url, auth: { type: 'bearer', token: 'dev-token' } },
      platforms: {
        vendor: { baseUrl: h.sim.url, listing: 'B', openapi: DESCRIPTION, auth: VENDOR_AUTH },
      },
      pipelines: { dir: pipelines },
      delivery: { concurrency: 2, backoff: { baseMs: 20, capMs: 200 }, reportsDir: h.dir },
      log: { level: 'silent' },
    }),
  );
});

afterAll(async () => {
  await plain?.close();
});

/** The price bodies a simulator received, by product. */
async function receivedPrices(sim: RunningSimulator): Promise<Map<string, string>> {
  const answer = await call(sim, 'GET', '/__sim/requests', { token: null });
  const requests = answer.body as { operationId: string | null; path: string; body?: string }[];
  const out = new Map<string, string>();
  for (const r of requests) {
    if (r.operationId !== 'products.prices.patch') continue;
    const product = /\/products\/([^/]+)\/prices/.exec(r.path)?.[1] ?? '';
    out.set(decodeURIComponent(product), r.body ?? '');
  }
  return out;
}

describe('one price pipeline, two shops described differently', () => {
  it('sends each shop the amount in its own shape, exactly', async () => {
    const file = join(h.dir, 'prices.csv');
    writeFileSync(
      file,
      ['No.;Description;Price;Currency', '20001;Kroner;1 273,00;NOK', '20002;Yen;1500;JPY'].join(
        '\n',
      ) + '\n',
    );
    const run = await ferryHere(['run', 'prices', '--file', file, '--wait', '--json'], {
      env: configOnlyEnv(configFile),
    });
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as { runs: { pipeline: string; status: string }[] };
    expect(doc.runs.map((r) => [r.pipeline, r.status])).toEqual([
      ['prices', 'succeeded'],
      ['prices@vendor', 'succeeded'],
    ]);
    const vendor = await receivedPrices(h.sim);
    expect(vendor.get('20001')).toBe('{"prices":[{"amountMinor":127300,"currency":"NOK"}]}');
    expect(vendor.get('20002')).toBe('{"prices":[{"amountMinor":1500,"currency":"JPY"}]}');
    const own = await receivedPrices(plain);
    expect(own.get('20001')).toContain('"currency":"NOK"');
    expect(own.get('20001')).toMatch(/"amount":"?1273\.00"?/);
    expect(own.get('20001')).not.toContain('amountMinor');
  });
});
