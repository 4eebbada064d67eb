/**
 * Every entry point plans and sends by the contract's bindings, on real HTTP and a real Redis: a
 * node:http server on port 0 plays a platform whose description (envelope-apikey-3.1.yaml) wants
 * categories in an object envelope `{"categories": [...]}` of at most 50, with an API key. An HTTP
 * import through the console (as `ferry serve` builds it, from the config as loaded) arrives in
 * batches of 50 at most, and the replay of its dead letter (as `ferry dlq replay` calls it)
 * arrives in the envelope. Without a pin, a worker sends each run's jobs by the description the run
 * was planned by, not by the one it read at start. With a pin, runs keep the pinned description's
 * bindings while the live one raises maxItems (a non-breaking change), until `ferry interface accept`.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { configWithContract } from '../../src/interface/openapi/configured-contract.js';
import { replayDeadLetters } from '../../src/orchestrate/replay.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { createRedis } from '../../src/redis/connection.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import type { RunReport } from '../../src/runs/run-report.js';
import { buildServer } from '../../src/serve/server.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { until } from '../helpers/until.js';
import { sendJson, startTestServer, type TestServer } from './client-test-server.js';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { expectNothingOpen, quietLogger, tempDir } from '../queue/delivery-fixtures.js';

const FIXTURE = join(PROJECT_ROOT, 'test/fixtures/openapi/envelope-apikey-3.1.yaml');
const prefix = uniquePrefix('contract-wiring');
const keys = deliveryKeys(prefix);
const dir = tempDir('contract-wiring');
const redis = createRedis(TEST_REDIS_URL);
const described = join(dir.path, 'platform.yaml');
let platform: TestServer;
let configFile = '';

/** Category keys the platform refuses (422) while they are here. */
const refused = new Set<string>();

/** The categories the platform received, each request's body parsed. */
const categoryPuts = () =>
  platform.requests
    .filter((r) => r.method === 'PUT' && r.url === '/external/api/categories')
    .map((r) => ({ ...r, parsed: JSON.parse(r.body) as unknown }));

/** The config as `ferry serve` and `ferry dlq replay` get it: loaded, nothing merged in. */
function loaded(): FerryConfig {
  const config = loadConfig({ ...process.env, FERRY_CONFIG: configFile }).config;
  return {
    ...config,
    serve: { ...config.serve, tokens: [{ name: 'op', role: 'operator' as const, token: 'op-t' }] },
  };
}

/** Categories C01.., named `Category NN` and `label` (a new label changes every one). */
function categoriesCsv(count: number, label = ''): string {
  const rows = Array.from({ length: count }, (_, i) => {
    const n = String(1 + i).padStart(2, '0');
    return `C${n},Category ${n}${label},${i}`;
  });
  return `id,name,pos\n${rows.join('\n')}\n`;
}

/** The live description, its categories' maxItems set to `max`, in an envelope named `envelope`. */
function describeWith(max: number, envelope = 'categories'): void {
  const doc = parse(readFileSync(FIXTURE, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const schema = doc.components.requestBodies.Categories.content['application/json'].schema;
  const { categories } = schema.properties;
  categories.maxItems = max;
  schema.properties = { [envelope]: categories };
  schema.required = [envelope];
  writeFileSync(described, stringify(doc));
}

beforeAll(async () => {
  platform = await startTestServer((req, res) => {
    const refuse = [...refused].some((key) => req.body.includes(`"${key}"`));
    if (refuse) sendJson(res, 422, { error: { code: 'INVALID', message: 'refused' } });
    else sendJson(res, 200, {});
  });
  const url = platform.url;
  describeWith(50);
  const pipelines = join(dir.path, 'pipelines');
  mkdirSync(pipelines, { recursive: true });
  writeFileSync(
    join(pipelines, 'cats.yaml'),
    stringify({
      source: { connector: 'csv', file: join(dir.path, 'cats.csv') },
      mode: 'snapshot',
      entities: [
        {
          name: 'category',
          operations: { upsert: 'categories.put' },
          key: 'id',
          fields: { title: 'name', position: { column: 'pos', type: 'integer' } },
        },
      ],
    }),
  );
  configFile = join(dir.path, 'ferry.yaml');
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix },
      interface: {
        baseUrl: url,
        auth: { type: 'apiKey', header: 'X-Api-Key', key: 'k-secret' },
        openapi: described,
      },
      pipelines: { dir: pipelines },
      delivery: { concurrency: 2, backoff: { baseMs: 20, capMs: 200 }, reportsDir: dir.path },
      log: { level: 'warn', format: 'json' },
    }),
  );
});

beforeEach(() => {
  platform.requests.length = 0;
  refused.clear();
});

afterAll(async () => {
  await platform.close();
  await deleteKeys(prefix);
  redis.disconnect();
  dir.remove();
  await expectNothingOpen();
});

describe('the console and dead-letter replays send by the description', () => {
  it('an HTTP import arrives in envelopes of at most the described 50 items', async () => {
    refused.add('C07');
    const config = loaded();
    const app = await buildServer({ config, redis, logger: quietLogger() });
    // A worker as `ferry worker` starts it (its config carries the description's bindings).
    const worker = await startDeliveryWorker({
      config: await configWithContract(config),
      logger: quietLogger(),
    });
    try {
      const answer = await app.inject({
        method: 'POST',
        url: '/api/pipelines/cats/runs?wait=true',
        headers: { authorization: 'Bearer op-t', 'content-type': 'text/csv' },
        payload: categoriesCsv(60),
      });
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json()).toMatchObject({ pipeline: 'cats', trigger: 'http' });
    } finally {
      await worker.close();
      await app.close();
    }
    const puts = categoryPuts();
    expect(puts.length).toBeGreaterThanOrEqual(2);
    for (const put of puts) {
      expect(put.headers['x-api-key']).toBe('k-secret');
      const { categories } = put.parsed as { categories: { externalId: string }[] };
      expect(categories.length).toBeGreaterThan(0);
      expect(categories.length).toBeLessThanOrEqual(50);
    }
    const delivered = new Set(
      puts
        .filter((p) => !p.body.includes('"C07"'))
        .flatMap((p) => (p.parsed as { categories: { externalId: string }[] }).categories)
        .map((c) => c.externalId),
    );
    expect(delivered.size).toBe(59);
    const letters = await createDeadLetterStore(redis, keys).list();
    expect(letters.map((l) => l.items.map((i) => i.key))).toEqual([['C07']]);
  });

  it('a dead-letter replay arrives in the envelope', async () => {
    const report = await replayDeadLetters({
      config: loaded(),
      logger: quietLogger(),
      selection: { all: true },
      dryRun: false,
    });
    expect(report.delivered).toBe(1);
    const puts = categoryPuts();
    expect(puts).toHaveLength(1);
    expect(puts[0]!.headers['x-api-key']).toBe('k-secret');
    expect(puts[0]!.parsed).toEqual({
      categories: [{ externalId: 'C07', title: 'Category 07', position: 6 }],
    });
  });
});

describe('without a pin, each run goes by the description it was planned by', () => {
  /** Plans `ferry run cats` with the description as it is now; resolves when the run is over. */
  const runBy = async (label: string) => {
    writeFileSync(join(dir.path, 'cats.csv'), categoriesCsv(3, label));
    const started = await startRun({
      config: loaded(),
      redis,
      logger: quietLogger(),
      pipeline: 'cats',
    });
    return async () =>
      until('the run to succeed', async () => {
        const status = await redis.hget(keys.run(started.runId), 'status');
        return status === 'succeeded';
      });
  };
  const envelopes = () => categoryPuts().map((p) => Object.keys(p.parsed as object).join());

  it('a worker started before the description changed sends by the new one', async () => {
    await redis.del(keys.contractPin);
    describeWith(50, 'categories');
    const worker = await startDeliveryWorker({ config: loaded(), logger: quietLogger() });
    try {
      describeWith(50, 'data'); // the platform's envelope is renamed
      await (
        await runBy(' (renamed)')
      )();
      expect(envelopes()).toEqual(['data']);
    } finally {
      await worker.close();
    }
  });

  it("a worker started after it changed again sends by the run's", async () => {
    await redis.del(keys.contractPin);
    describeWith(50, 'items');
    const done = await runBy(' (items)'); // planned by `items`, no worker yet
    describeWith(50, 'categories');
    const worker = await startDeliveryWorker({ config: loaded(), logger: quietLogger() });
    try {
      await done();
      expect(envelopes()).toEqual(['items']);
    } finally {
      await worker.close();
    }
  });
});

describe('with a pin, runs use the pinned description', () => {
  const env = () => ({ env: { ...process.env, FERRY_CONFIG: configFile } });
  /** `ferry run cats --wait`, its report. */
  const run = async (count: number, label: string) => {
    writeFileSync(join(dir.path, 'cats.csv'), categoriesCsv(count, label));
    const done = await ferryHere(['run', 'cats', '--wait', '--json'], env());
    expect(done.code, done.stderr).toBe(0);
    return JSON.parse(done.stdout) as RunReport;
  };

  it('keeps the pinned maxItems while the live one is raised, until accept', async () => {
    describeWith(50);
    expect((await ferryHere(['interface', 'pull'], env())).code).toBe(0);
    describeWith(100); // non-breaking: the platform takes more per request
    const check = await ferryHere(['interface', 'check'], env());
    expect(check.stdout).toMatch(/Runs use the pinned description \(sha256 [0-9a-f]{12}/);

    const before = await run(80, ' (autumn)');
    expect(before.status).toBe('succeeded');
    expect(before.contract).toMatchObject({ changed: true, breaking: 0 });
    expect(
      categoryPuts().map((p) => (p.parsed as { categories: unknown[] }).categories.length),
    ).toEqual([50, 30]);

    platform.requests.length = 0;
    expect((await ferryHere(['interface', 'accept'], env())).code).toBe(0);
    const after = await run(90, ' (winter)');
    expect(after.status).toBe('succeeded');
    expect(
      categoryPuts().map((p) => (p.parsed as { categories: unknown[] }).categories.length),
    ).toEqual([90]);
  });
});
