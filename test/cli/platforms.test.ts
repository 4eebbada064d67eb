/**
 * Two platforms on a real Redis and the simulator over TCP: `default` (the top-level interface)
 * and `north` (the same simulator under another address, with a credential it refuses). The
 * catalog delivers to both: its run on default ends partial (one item refused, dead-lettered),
 * its run on north is blocked by the breaker (401 to everyone). Then `ferry platforms` names
 * each platform with its pin, block and last runs and never a token; /metrics labels every run
 * and delivery figure with its platform; `ferry runs`, `ferry dlq list` and `ferry status` keep
 * or show each platform's.
 */
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { writePin } from '../../src/runs/contract/pin-store.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys, platformKeys } from '../../src/runs/keys.js';
import { parseRun } from '../../src/runs/run-record.js';
import { buildServer } from '../../src/serve/server.js';
import { configOnlyEnv, ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { itemRow, writeItems } from '../serve/console-fixtures.js';

const DEFAULT_TOKEN = 'dev-token';
const NORTH_TOKEN = 'north-token-the-platform-refuses';
const PIN_SHA = 'ab'.repeat(32);

const h = useDeliveryHarness('platforms', { seed: 5 });
const keys = () => deliveryKeys(h.prefix);
let configFile = '';
let config: FerryConfig;
let worker: DeliveryWorker | undefined;
let workerClosed: Promise<boolean> | undefined;
/** Closes the worker once (its request figures are written then). */
const closeWorker = () => (workerClosed ??= worker?.close() ?? Promise.resolve(true));
let northUrl = '';
let defaultRun = '';
let northRun = '';

const ferry = (args: string[]) => ferryHere(args, { env: configOnlyEnv(configFile) });

async function ferryJson<T>(args: string[]): Promise<T> {
  const run = await ferry([...args, '--json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

beforeAll(async () => {
  // The same simulator under another address: another platform to Ferry.
  northUrl = h.sim.url.replace('127.0.0.1', 'localhost');
  const pipelines = join(h.dir, 'pipelines');
  mkdirSync(pipelines, { recursive: true });
  const catalog = readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8');
  writeFileSync(join(pipelines, 'catalog.yaml'), `${catalog}\nplatforms: [default, north]\n`);
  configFile = join(h.dir, 'ferry.yaml');
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix: h.prefix },
      interface: { baseUrl: h.sim.url, auth: { type: 'bearer', token: DEFAULT_TOKEN } },
      platforms: {
        north: {
          baseUrl: northUrl,
          auth: { type: 'bearer', token: NORTH_TOKEN },
          delivery: { ratePerSecond: 40 },
        },
      },
      pipelines: { dir: pipelines },
      delivery: {
        concurrency: 2,
        attempts: 3,
        backoff: { baseMs: 20, capMs: 200 },
        breaker: { threshold: 1, probeSeconds: 600 },
        reportsDir: join(h.dir, 'reports'),
      },
      serve: { metricsPublic: true },
      log: { level: 'silent', format: 'json' },
    }),
  );
  config = loadConfig(configOnlyEnv(configFile)).config;
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  const file = writeItems(join(h.dir, 'items.csv'), [
    itemRow('N1', '10,00'),
    itemRow('N2', '11,00'),
  ]);
  h.sim.setFaults({ rejectKeys: ['N2'] });
  const start = (pipeline: string) =>
    startRun({ config, redis: h.redis, logger: quietLogger(), pipeline, source: { file } });
  defaultRun = (await start('catalog@default')).runId;
  expect((await followRun(h.redis, keys(), defaultRun, () => undefined)).status).toBe('partial');
  northRun = (await start('catalog@north')).runId;
  await until('the north run is blocked', async () => {
    return parseRun(await h.redis.hgetall(keys().run(northRun)))?.status === 'blocked';
  });
  // A dead letter of the catalog on north, as the worker writes them.
  const store = createDeadLetterStore(h.redis, keys());
  const [refused] = await store.list({ pipeline: 'catalog' });
  await store.add([{ ...refused!, pipeline: 'catalog@north', runId: northRun }]);
  await writePin(h.redis, platformKeys(keys(), 'north'), {
    sha256: PIN_SHA,
    source: `${northUrl}/openapi.json`,
    text: '{}',
    version: '2.1.0',
    validators: {},
    pulledAt: Date.now(),
    pulledBy: 'test',
  });
  await closeWorker();
});

afterAll(async () => {
  await closeWorker();
});

interface PlatformDoc {
  name: string;
  baseUrl: string;
  listing: string;
  pinned?: { sha256: string; source: string; version?: string };
  ratePerSecond: number | 'auto';
  blocked?: { pipeline: string; runId: string; reason: string; since?: string }[];
  lastRuns: { pipeline: string; runId: string; status: string; finishedAt?: string }[];
}

describe('ferry platforms', () => {
  it('lists each platform, default first, with its pin, block and last runs', async () => {
    const platforms = await ferryJson<PlatformDoc[]>(['platforms']);
    expect(platforms.map((p) => p.name)).toEqual(['default', 'north']);
    const [home, north] = platforms;
    expect(home).toEqual({
      name: 'default',
      baseUrl: h.sim.url,
      listing: 'A',
      ratePerSecond: 'auto',
      lastRuns: [
        {
          pipeline: 'catalog',
          runId: defaultRun,
          status: 'partial',
          trigger: 'cli',
          startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          finishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    });
    expect(north).toMatchObject({
      name: 'north',
      baseUrl: northUrl,
      listing: 'A',
      ratePerSecond: 40,
      pinned: { sha256: PIN_SHA, source: `${northUrl}/openapi.json`, version: '2.1.0' },
      blocked: [{ pipeline: 'catalog@north', runId: northRun, reason: 'unauthorized' }],
      lastRuns: [{ pipeline: 'catalog@north', runId: northRun, status: 'blocked' }],
    });
    expect(north!.blocked![0]!.since).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('prints a table for people, and never a token', async () => {
    const text = await ferry(['platforms']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^PLATFORM\s+BASE URL\s+LISTING\s+RATE\/S\s+PINNED\s+BLOCKED/);
    expect(text.stdout).toMatch(
      /north\s+http:\/\/localhost:\d+\s+A\s+40\s+abababababab \(2\.1\.0\)\s+1/,
    );
    expect(text.stdout).toContain(`BLOCKED catalog@north: unauthorized since`);
    expect(text.stdout).toContain(`last run of catalog: ${defaultRun} partial`);
    const json = await ferry(['platforms', '--json']);
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain(DEFAULT_TOKEN);
      expect(out).not.toContain(NORTH_TOKEN);
    }
  });
});

describe('/metrics', () => {
  it('labels every run and delivery figure with its platform', async () => {
    const app = await buildServer({ config, redis: h.redis, logger: quietLogger() });
    try {
      const text = (await app.inject({ url: '/metrics' })).body;
      const on = (platform: string) => `pipeline="catalog",platform="${platform}"`;
      expect(text).toContain(
        `ferry_items_total{${on('default')},operation="products.put",outcome="delivered"} 1`,
      );
      expect(text).toContain(`ferry_runs_total{${on('default')},status="partial",kind="sync"} 1`);
      expect(text).toContain(`ferry_run_active{${on('default')}} 0`);
      expect(text).toContain(`ferry_run_active{${on('north')}} 1`);
      expect(text).toMatch(/ferry_dead_letters\{pipeline="catalog",platform="default"\} [1-9]/);
      expect(text).toContain(`ferry_dead_letters{${on('north')}} 1`);
      expect(text).toContain(`ferry_delivery_blocked{${on('north')},reason="unauthorized"} 1`);
      expect(text).toMatch(
        /ferry_requests_total\{platform="default",operation="categories\.put",status="200"\} [1-9]/,
      );
      expect(text).toMatch(
        /ferry_requests_total\{platform="north",operation="[a-z.]+",status="401"\} [1-9]/,
      );
      expect(text).toMatch(
        /ferry_request_duration_seconds_count\{platform="north",operation="[a-z.]+"\} [1-9]/,
      );
      expect(text).toContain('ferry_rate_limit_per_second{platform="north",source="configured"}');
      expect(text).toContain('ferry_contract_changes{platform="north",kind="breaking"} 0');
      // No figure names a pipeline by its qualified name.
      expect(text).not.toContain('catalog@north');
    } finally {
      await app.close();
    }
  });
});

describe('filters by platform', () => {
  interface Line {
    runId: string;
    pipeline: string;
    platform: string;
  }

  it('ferry runs --platform keeps the runs on that platform, and shows each run’s', async () => {
    const all = await ferryJson<Line[]>(['runs']);
    expect(all.map((r) => [r.runId, r.platform])).toEqual([
      [northRun, 'north'],
      [defaultRun, 'default'],
    ]);
    const north = await ferryJson<Line[]>(['runs', '--platform', 'north']);
    expect(north.map((r) => r.runId)).toEqual([northRun]);
    const named = await ferryJson<Line[]>(['runs', '--pipeline', 'catalog', '--platform', 'north']);
    expect(named.map((r) => r.runId)).toEqual([northRun]);
    const home = await ferryJson<Line[]>(['runs', '--platform', 'default']);
    expect(home.map((r) => r.runId)).toEqual([defaultRun]);
    const text = await ferry(['runs', '--platform', 'north']);
    expect(text.stdout).toMatch(/^RUN\s+PLATFORM\s+KIND/);
    expect(text.stdout).toMatch(new RegExp(`${northRun}\\s+north\\s+sync\\s+blocked`));
    const unknown = await ferry(['runs', '--platform', 'south']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('platforms: default, north');
  });

  it('ferry dlq list --platform keeps the dead letters of the pipelines on that platform', async () => {
    const pipelinesOf = async (args: string[]) => [
      ...new Set(
        (await ferryJson<{ pipeline: string }[]>(['dlq', 'list', ...args])).map((e) => e.pipeline),
      ),
    ];
    expect((await pipelinesOf([])).sort()).toEqual(['catalog', 'catalog@north']);
    expect(await pipelinesOf(['--platform', 'north'])).toEqual(['catalog@north']);
    expect(await pipelinesOf(['--platform', 'default'])).toEqual(['catalog']);
    expect(await pipelinesOf(['--pipeline', 'catalog', '--platform', 'north'])).toEqual([
      'catalog@north',
    ]);
    expect(await pipelinesOf(['--platform', 'north', '--operation', 'nope'])).toEqual([]);
  });

  it('ferry trace follows an entity on one platform, by its name there', async () => {
    const trace = async (pipeline: string) => {
      const run = await ferry(['trace', pipeline, 'N2', '--json']);
      // 1: a dead letter of the key waits (N2 was refused on both platforms).
      expect(run.code, run.stderr).toBe(1);
      return JSON.parse(run.stdout) as { pipeline: string; deadLetters: unknown[] };
    };
    const north = await trace('catalog@north');
    expect(north.pipeline).toBe('catalog@north');
    expect(north.deadLetters).toHaveLength(1);
    // `catalog` is the file's name on default here: its own entity there.
    expect((await trace('catalog')).pipeline).toBe('catalog');
    const east = await ferry(['trace', 'catalog@east', 'N2']);
    expect(east.code).toBe(2);
    expect(east.stderr).toContain('does not deliver to east');
  });

  it('ferry status names each pipeline’s platform beside its URL', async () => {
    const status = await ferryJson<{
      pipelines: { pipeline: string; platformName: string; configuredPlatform: string }[];
    }>(['status']);
    expect(status.pipelines).toEqual([
      expect.objectContaining({
        pipeline: 'catalog',
        platformName: 'default',
        configuredPlatform: h.sim.url,
      }),
      expect.objectContaining({
        pipeline: 'catalog@north',
        platformName: 'north',
        configuredPlatform: northUrl,
      }),
    ]);
    const text = await ferry(['status']);
    expect(text.stdout).toMatch(new RegExp(`catalog@north\\s+north\\s+${northUrl}`));
  });

  it('asks for the description where that platform takes it from, when there is none', async () => {
    const north = await ferry(['interface', 'check', '--platform', 'north']);
    expect(north.code).toBe(2);
    expect(north.stderr).toContain(
      'No description to check: pass --openapi FILE|URL, or set platforms.north.openapi (or interface.openapi, which it takes when it has none).',
    );
    const pull = await ferry(['interface', 'pull', '--platform', 'north']);
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain('set platforms.north.openapi');
    const own = await ferry(['interface', 'check']);
    expect(own.stderr).toContain('set interface.openapi (FERRY_OPENAPI).');
  });

  it('ferry call --platform speaks to that platform, with its address and credential', async () => {
    expect((await ferry(['call', 'stores.get'])).code).toBe(0);
    // north's credential is one the platform refuses: the refusal says whose it is.
    const north = await ferry(['call', 'stores.get', '--platform', 'north', '--json']);
    expect(north.code).toBe(1);
    expect(JSON.parse(north.stdout)).toMatchObject({ status: 401 });
    expect(north.stderr).toContain('platforms.north.auth (or FERRY_PLATFORM_NORTH_TOKEN)');
    expect(north.stderr).not.toContain(NORTH_TOKEN);
  });
});
