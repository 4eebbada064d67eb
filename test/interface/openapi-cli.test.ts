/**
 * `ferry interface check` and runs against a described platform, through the CLI in this
 * process (main()), on real HTTP: the simulator plays a platform with the bindings the description
 * states (categories in an object envelope, 25 products a request, products deleted by the
 * repeated query parameter `ids`), and refuses bodies of any other shape.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { describedBindings } from '../../src/interface/openapi/described-bindings.js';
import { describedOperations } from '../../src/interface/openapi/described-operations.js';
import { loadDescription } from '../../src/interface/openapi/load-description.js';
import { matchCatalog } from '../../src/interface/openapi/match-catalog.js';
import type { InterfaceCheck } from '../../src/pipeline/contract/interface-check.js';
import type { RunReport } from '../../src/runs/run-report.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { runFerryHere as runFerry } from '../queue/cli-process.js';
import { expectNothingOpen, tempDir } from '../queue/delivery-fixtures.js';

const ENVELOPE = resolve(PROJECT_ROOT, 'test/fixtures/openapi/envelope-apikey-3.1.yaml');
const NULLABLE = resolve(PROJECT_ROOT, 'test/fixtures/openapi/nullable-bearer-3.0.json');
const prefix = uniquePrefix('openapi');
const dir = tempDir('openapi');
let sim: RunningSimulator;

/** Fits envelope-apikey-3.1.yaml: categories {externalId, title, position}, products, deletes. */
const PIPELINE = {
  source: { connector: 'csv', file: 'items.csv' },
  mode: 'snapshot',
  deletes: { enabled: true, maxShare: 1, minRows: 0 },
  entities: [
    {
      name: 'category',
      operations: { upsert: 'categories.put' },
      key: 'cat',
      duplicates: 'first',
      fields: { title: 'catname', position: { column: 'pos', type: 'integer' } },
    },
    {
      name: 'product',
      operations: { upsert: 'products.put', delete: 'products.delete' },
      key: 'sku',
      fields: {
        name: 'name',
        gtin: 'gtin',
        active: { column: 'active', type: 'boolean' },
        categoryExternalIds: { array: [{ column: 'cat' }] },
      },
    },
  ],
};

function writeConfig(name: string, auth: Record<string, string>, pipelines: object): string {
  const pipelinesDir = join(dir.path, `${name}-pipelines`);
  mkdirSync(pipelinesDir, { recursive: true });
  for (const [file, body] of Object.entries(pipelines)) {
    writeFileSync(join(pipelinesDir, `${file}.yaml`), stringify(body));
  }
  const file = join(dir.path, `${name}.yaml`);
  writeFileSync(
    file,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix },
      interface: { baseUrl: sim.url, auth, openapi: ENVELOPE },
      pipelines: { dir: pipelinesDir },
      delivery: {
        concurrency: 2,
        backoff: { baseMs: 20, capMs: 200 },
        lockDurationMs: 2000,
        stalledIntervalMs: 1000,
        reportsDir: join(dir.path, 'reports'),
      },
      log: { level: 'warn', format: 'json' },
    }),
  );
  return file;
}

function itemsFile(name: string, rows: string[][]): string {
  const file = join(dir.path, name);
  const header = ['sku', 'name', 'gtin', 'active', 'cat', 'catname', 'pos'];
  writeFileSync(file, [header, ...rows].map((r) => r.join(',')).join('\n') + '\n');
  return file;
}

beforeAll(async () => {
  const match = matchCatalog(describedOperations((await loadDescription(ENVELOPE)).doc));
  sim = await startSimulator({ port: 0, seed: 5, bindings: describedBindings(match) });
});

afterAll(async () => {
  await sim.close();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('ferry interface check', () => {
  it('passes (exit 0) a pipeline and auth that fit; shows listing, bindings and origins', async () => {
    const config = writeConfig(
      'fits',
      { type: 'apiKey', header: 'x-api-key', key: 'k-1' },
      {
        catalog: PIPELINE,
      },
    );
    const result = await runFerry(['interface', 'check', '--json'], config);
    expect(result.code, result.stderr).toBe(0);
    const check = JSON.parse(result.stdout) as InterfaceCheck;
    expect(check).toMatchObject({
      source: ENVELOPE,
      title: 'Platform External API',
      version: '2.4.0',
      listing: 'A',
      extra: [{ method: 'GET', path: '/external/api/health' }],
      pipelines: ['catalog'],
      problems: [],
    });
    expect(check.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(check.operations).toHaveLength(31);
    expect(check.operations.find((o) => o.operationId === 'products.prices.patch')).toEqual({
      operationId: 'products.prices.patch',
      method: 'PATCH',
      path: '/external/api/products/{id}/prices',
      status: 'matched',
    });
    expect(check.operations.find((o) => o.operationId === 'users.put')?.status).toBe('missing');
    const put = check.bindings.find((b) => b.operationId === 'categories.put');
    expect(put).toMatchObject({ envelope: 'categories', maxItems: 50 });
    expect(put?.origins).toMatchObject({ envelope: 'description', keyField: 'default' });
    const human = await runFerry(['interface', 'check'], config);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Listing: A; 10 of 31 catalog operations described');
    expect(human.stdout).toContain('deleteQueryParam ids [description]');
  });

  it('finds unmapped required, forbidden and ill-typed properties and the wrong auth (exit 1)', async () => {
    const wrong = {
      ...PIPELINE,
      deletes: { enabled: false },
      entities: [
        {
          name: 'category',
          operations: { upsert: 'categories.put' },
          key: 'cat',
          duplicates: 'first',
          // title (required) not mapped; name not allowed; position an integer, not a boolean
          fields: { name: 'catname', position: { column: 'pos', type: 'boolean' } },
        },
        {
          name: 'user',
          operations: { upsert: 'users.put' },
          key: 'sku',
          fields: { firstName: 'name' },
        },
      ],
    };
    const config = writeConfig('wrong', { type: 'bearer', token: 't' }, { catalog: wrong });
    const result = await runFerry(['interface', 'check', '--json'], config);
    expect(result.code, result.stderr).toBe(1);
    const { problems } = JSON.parse(result.stdout) as InterfaceCheck;
    const codes = problems.map((p) => `${p.code} ${p.field ?? p.operationId ?? ''}`);
    expect(codes).toEqual([
      'REQUIRED_NOT_MAPPED title',
      'PROPERTY_NOT_ALLOWED name',
      'TYPE_CANNOT_FIT position',
      'OPERATION_NOT_DESCRIBED users.put',
      'AUTH_MISMATCH categories.put',
    ]);
    expect(problems[2]?.message).toContain('the mapping makes a boolean; the schema wants integer');
    expect(problems[4]?.message).toBe(
      'interface.auth is bearer; the description asks for an API key in header "X-Api-Key"',
    );
  });

  it('a 3.0 description: nullable types, listing B, bearer auth', async () => {
    const config = writeConfig('b', { type: 'bearer', token: 't' }, {});
    const result = await runFerry(['interface', 'check', '--openapi', NULLABLE, '--json'], config);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      listing: 'B',
      version: '1.9.0',
      problems: [],
    });
  });

  it('exit 2 naming source and pointer when the description cannot be read', async () => {
    const config = writeConfig('broken', { type: 'bearer', token: 't' }, {});
    const broken = resolve(PROJECT_ROOT, 'test/fixtures/openapi/broken-ref.yaml');
    const result = await runFerry(['interface', 'check', '--openapi', broken, '--json'], config);
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stdout) as { error: Record<string, string> };
    expect(error).toMatchObject({ code: 'FERRY_OPENAPI_INVALID', source: broken });
    expect(error.pointer).toMatch(/\/schema\/items\/\$ref$/);
  });
});

describe('a run against the described platform', () => {
  it('sends categories in their envelope, products in batches of the described maxItems, and deletes by ?ids=', async () => {
    const config = writeConfig(
      'run',
      { type: 'bearer', token: 'dev-token' },
      {
        catalog: PIPELINE,
      },
    );
    const rows = Array.from({ length: 30 }, (_, i) => {
      const n = String(i + 1).padStart(3, '0');
      return [
        `P${n}`,
        `Product ${n}`,
        `0000000${n}`,
        'true',
        i < 15 ? 'C1' : 'C2',
        i < 15 ? 'Bikes' : 'Parts',
        '1',
      ];
    });
    const first = await runFerry(
      ['run', 'catalog', '--file', itemsFile('one.csv', rows), '--wait', '--json'],
      config,
    );
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as RunReport;
    expect(report.operations['categories.put']).toMatchObject({ planned: 2, delivered: 2 });
    expect(report.operations['products.put']).toMatchObject({ planned: 30, delivered: 30 });
    expect(sim.state('categories')).toHaveLength(2);
    expect(sim.state('categories')[0]).toMatchObject({
      externalId: 'C1',
      title: 'Bikes',
      position: 1,
    });
    expect(sim.state('products')).toHaveLength(30);
    const stats = sim.stats();
    expect(stats.byOperation['products.put']).toBe(2); // 25 + 5: the description's maxItems
    expect(stats.byOperation['categories.put']).toBe(1);

    const second = await runFerry(
      ['run', 'catalog', '--file', itemsFile('two.csv', rows.slice(0, 27)), '--wait', '--json'],
      config,
    );
    expect(second.code, second.stderr).toBe(0);
    expect((JSON.parse(second.stdout) as RunReport).operations['products.delete']).toMatchObject({
      planned: 3,
      delivered: 3,
    });
    expect(sim.state('products')).toHaveLength(27);
  });
});

describe('ferry pipeline new', () => {
  it('maps the schema to the sample by name; a required property without a column is a TODO that interface check names', async () => {
    const config = writeConfig('new', { type: 'apiKey', header: 'X-Api-Key', key: 'k' }, {});
    const sample = join(dir.path, 'sample.csv');
    writeFileSync(sample, 'Item No.;EAN;Active;Colour\nA1;12345678;true;red\n');
    const made = await runFerry(
      ['pipeline', 'new', 'products', '--operation', 'products.put', '--sample', sample, '--json'],
      config,
    );
    expect(made.code, made.stderr).toBe(0);
    const out = JSON.parse(made.stdout) as {
      file: string;
      matched: { property: string; column: string }[];
      todo: string[];
    };
    expect(out.matched).toEqual([
      { property: 'externalId', column: 'Item No.' },
      { property: 'gtin', column: 'EAN' },
      { property: 'active', column: 'Active' },
    ]);
    expect(out.todo).toEqual(['name']);
    const text = readFileSync(out.file, 'utf8');
    expect(text).toContain(
      '# TODO: required "name" (string: no column of the sample is named like it)',
    );
    expect(text).toContain('delimiter: ";"');
    const again = await runFerry(
      ['pipeline', 'new', 'products', '--operation', 'products.put', '--sample', sample],
      config,
    );
    expect(again.code).toBe(2); // exists: --force to overwrite
    const check = await runFerry(['interface', 'check', '--json'], config);
    expect(check.code, check.stderr).toBe(1);
    expect((JSON.parse(check.stdout) as InterfaceCheck).problems).toEqual([
      expect.objectContaining({ code: 'REQUIRED_NOT_MAPPED', field: 'name', pipeline: 'products' }),
    ]);
  });
});
