/**
 * Issue 33's prices 100 times too low, end to end: the simulator plays a vendor's description whose
 * price amounts are integers in minor units (test/fixtures/openapi/vendor-minor-units-3.0.json),
 * over TCP, and what it received (GET /__sim/requests) is the proof. With `minorUnits` a price is
 * written as an exact count of its currency's minor units (NOK 2 decimals, JPY 0, KWD 3); an amount
 * with more decimals than its currency has, or in an unknown currency, rejects its record (named
 * by file, line and column) unless the field rounds; a decimal mapped straight into the integer
 * property (what the check's old advice led to: `{"amountMinor": 1273.00}`) is rejected at plan
 * time and `interface check` names the UNITS problem. Real Redis, `ferry` in-process with --wait.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { configOnlyEnv, ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { VENDOR_AUTH } from '../pipeline/helpers.js';
import { call } from '../simulator/sim-http.js';
import { useDeliveryHarness } from './delivery-fixtures.js';

const DESCRIPTION = resolve(PROJECT_ROOT, 'test/fixtures/openapi/vendor-minor-units-3.0.json');
const TOKEN = 'vendor-token';

/** A product entity the description accepts, and a price entity whose amount is `amount`. */
function pricesPipeline(amount: Record<string, unknown>) {
  return {
    source: { connector: 'csv', options: { delimiter: ';' } },
    mode: 'snapshot',
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
        },
      },
      {
        name: 'price',
        operations: { upsert: 'products.prices.patch' },
        key: 'No.',
        sendWithNew: 'product',
        fields: {
          prices: {
            array: [
              {
                object: {
                  amountMinor: {
                    column: 'Price',
                    type: 'decimal',
                    decimalSeparator: ',',
                    ...amount,
                  },
                  currency: { column: 'Currency', transform: 'uppercase' },
                },
              },
            ],
          },
        },
      },
    ],
  };
}

const h = useDeliveryHarness(
  'minor-units',
  { openapi: DESCRIPTION, token: TOKEN, keepBodies: true },
  ({ dir }) => {
    const pipelines = join(dir, 'pipelines');
    mkdirSync(pipelines);
    const write = (name: string, body: unknown) =>
      writeFileSync(join(pipelines, `${name}.yaml`), stringify(body));
    write('prices-minor', pricesPipeline({ minorUnits: { column: 'Currency' } }));
    write('prices-rounded', pricesPipeline({ minorUnits: { code: 'NOK' }, round: 'half-even' }));
    // What the check's old advice led to: the decimal straight into the integer property.
    write('prices-naive', pricesPipeline({}));
    return Promise.resolve();
  },
);

function writeConfig(name: string): string {
  const file = join(h.dir, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix: h.prefix },
      interface: {
        baseUrl: h.sim.url,
        listing: 'B',
        openapi: DESCRIPTION,
        auth: VENDOR_AUTH,
      },
      pipelines: { dir: join(h.dir, 'pipelines') },
      delivery: { concurrency: 2, backoff: { baseMs: 20, capMs: 200 }, reportsDir: h.dir },
      log: { level: 'silent' },
    }),
  );
  return file;
}

const ferry = (config: string, args: string[]) => ferryHere(args, { env: configOnlyEnv(config) });

function exportFile(name: string, rows: string[]): string {
  const file = join(h.dir, name);
  writeFileSync(file, ['No.;Description;Price;Currency', ...rows].join('\n') + '\n');
  return file;
}

interface PlanError {
  file: string;
  line: number;
  field: string;
  path?: string;
  message: string;
}

/** The price bodies the simulator received, by product, as GET /__sim/requests lists them. */
async function receivedPrices(): Promise<Map<string, string>> {
  const answer = await call(h.sim, 'GET', '/__sim/requests', { token: null });
  expect(answer.status).toBe(200);
  const requests = answer.body as {
    operationId: string | null;
    path: string;
    status: number;
    body?: string;
  }[];
  const out = new Map<string, string>();
  for (const r of requests) {
    if (r.operationId !== 'products.prices.patch') continue;
    expect(r.status, r.body).toBeLessThan(300);
    const product = /\/products\/([^/]+)\/prices/.exec(r.path)?.[1] ?? '';
    out.set(decodeURIComponent(product), r.body ?? '');
  }
  return out;
}

const body = (units: string, currency: string) =>
  `{"prices":[{"amountMinor":${units},"currency":"${currency}"}]}`;

describe('prices in minor units can never be sent off by a factor', () => {
  it('writes whole and fractional amounts of NOK, JPY and KWD as exact minor units', async () => {
    const config = writeConfig('ferry');
    const file = exportFile('prices.csv', [
      '10001;Whole kroner;1 273,00;NOK', // line 2
      '10002;Fractional kroner;1273,5;NOK',
      '10003;Øre only;0,07;NOK',
      '10004;Yen;1273;JPY',
      '10005;Dinar;1,275;KWD',
      '10006;Whole dinar;12;KWD',
      '10007;Too fine kroner;12,345;NOK', // line 8
      '10008;Yen with a fraction;12,5;JPY',
      '10009;Too fine dinar;1,2755;KWD',
      '10010;Unknown currency;10,00;XYZ', // line 11
      '10011;Code in lower case;99,90;nok',
      '10012;Largest exact;90071992547409,91;NOK',
      '10013;Past 2^53;90071992547409,92;NOK', // line 14
    ]);
    const plan = await ferry(config, ['plan', 'prices-minor', '--file', file, '--json']);
    expect(plan.code, plan.stderr).toBe(1);
    const errors = (JSON.parse(plan.stdout) as { errors: PlanError[] }).errors;
    expect(errors.map((e) => [e.line, e.field])).toEqual([
      [8, 'Price'],
      [9, 'Price'],
      [10, 'Price'],
      [11, 'Currency'],
      [14, 'Price'],
    ]);
    for (const e of errors) expect(e.file).toBe(join(h.dir, 'prices.csv'));
    expect(errors[0]!.message).toBe(
      'Price: "12.345" has more decimals than NOK has (2); it is not rounded unless the field sets round',
    );
    expect(errors[1]!.message).toContain('more decimals than JPY has (0)');
    expect(errors[2]!.message).toContain('more decimals than KWD has (3)');
    expect(errors[3]!.message).toBe('Currency: "XYZ" is not an ISO 4217 currency code');
    expect(errors[4]!.message).toContain('more than 2^53 - 1');

    const run = await ferry(config, ['run', 'prices-minor', '--file', file, '--wait', '--json']);
    expect(run.code, run.stderr).toBe(1); // the five rejected records
    const received = await receivedPrices();
    expect(Object.fromEntries(received)).toEqual({
      '10001': body('127300', 'NOK'),
      '10002': body('127350', 'NOK'),
      '10003': body('7', 'NOK'),
      '10004': body('1273', 'JPY'),
      '10005': body('1275', 'KWD'),
      '10006': body('12000', 'KWD'),
      '10011': body('9990', 'NOK'),
      '10012': body('9007199254740991', 'NOK'),
    });
    const stored = (await call(h.sim, 'GET', '/__sim/state/prices', { token: null })).body as {
      productId: string;
      prices: { amountMinor: number }[];
    }[];
    const amounts = new Map(stored.map((p) => [p.productId, p.prices[0]?.amountMinor]));
    expect(amounts.get('10001')).toBe(127_300);
    expect(amounts.get('10004')).toBe(1273);
    expect(amounts.get('10005')).toBe(1275);
    expect(h.sim.stats().rejected).toBe(0);
  });

  it('rounds the extra decimals only when the field sets round (half-even)', async () => {
    const config = writeConfig('ferry');
    const file = exportFile('rounded.csv', [
      '30001;Half to even, down;12,345;NOK',
      '30002;Half to even, up;12,355;NOK',
      '30003;Above half;12,3451;NOK',
      '30004;Half of an øre;0,005;NOK',
    ]);
    const run = await ferry(config, ['run', 'prices-rounded', '--file', file, '--wait']);
    expect(run.code, run.stderr).toBe(0);
    const received = await receivedPrices();
    expect(received.get('30001')).toBe(body('1234', 'NOK'));
    expect(received.get('30002')).toBe(body('1236', 'NOK'));
    expect(received.get('30003')).toBe(body('1235', 'NOK'));
    expect(received.get('30004')).toBe(body('0', 'NOK'));
  });

  it('rejects a decimal written straight into the integer property, and the check names UNITS', async () => {
    const config = writeConfig('ferry');
    const check = await ferry(config, ['interface', 'check', '--json']);
    expect(check.code, check.stderr).toBe(1);
    const problems = (JSON.parse(check.stdout) as { problems: Record<string, unknown>[] }).problems;
    expect(problems).toEqual([
      {
        code: 'UNITS',
        message:
          'prices-naive price (products.prices.patch): "prices[].amountMinor" is an integer property and the mapping gives it a decimal (column Price): an amount there is counted in minor units (øre, cents). Fix: give the field minorUnits: {column: COLUMN} (the column holding the ISO 4217 currency code) or minorUnits: {code: NOK}, so 1273.00 NOK is written as 127300',
        operationId: 'products.prices.patch',
        pipeline: 'prices-naive',
        field: 'prices[].amountMinor',
      },
    ]);

    const file = exportFile('naive.csv', ['20001;Whole kroner;1273,00;NOK', '20002;Yen;1273;JPY']);
    const plan = await ferry(config, ['plan', 'prices-naive', '--file', file, '--json']);
    expect(plan.code, plan.stderr).toBe(1);
    expect((JSON.parse(plan.stdout) as { errors: PlanError[] }).errors).toEqual([
      {
        file: join(h.dir, 'naive.csv'),
        line: 2,
        field: 'Price',
        path: '/prices/0/amountMinor',
        key: '20001',
        message:
          'Price: must be an integer, got 1273.00: a decimal is never written into an integer property (an amount in minor units: set minorUnits on the field) (/prices/0/amountMinor in the products.prices.patch request schema)',
      },
    ]);
    const run = await ferry(config, ['run', 'prices-naive', '--file', file, '--wait']);
    expect(run.code, run.stderr).toBe(1);
    const received = await receivedPrices();
    expect(received.has('20001')).toBe(false);
    // A whole yen amount is a whole number already: it fits the integer property as it is.
    expect(received.get('20002')).toBe(body('1273', 'JPY'));
  });
});
