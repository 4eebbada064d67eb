/**
 * Several shops in one installation (docs/PLATFORMS.md), over TCP: two simulators (north and
 * south) and two workers of one installation. A catalog that fans out to both delivers to each
 * with south's overrides (its currency), each against its own state; an unchanged rerun sends
 * nothing to either; north's credential refused blocks north's run only, without dead letters,
 * while south's finishes, and north's delivers after its credential is back and a resume. A
 * refusal by south is replayed to south only, and an undo of north's run restores north only. A
 * worker whose config lacks south blocks south's run, naming it, until a worker that knows it. A
 * north limited to 2 requests a second, with more jobs than the workers have slots, does not keep
 * south's run waiting: its jobs give their slots back while its rate holds them.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { platformConfig } from '../../src/config/platforms.js';
import { configSchema, type FerryConfig } from '../../src/config/schema.js';
import { AuthError, createInterfaceClient } from '../../src/interface/index.js';
import { replayDeadLetters } from '../../src/orchestrate/replay.js';
import { resumeRun } from '../../src/orchestrate/resume-run.js';
import { undoRun } from '../../src/orchestrate/undo-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { pipelineTargets } from '../../src/pipeline/index.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { loadRun } from '../../src/runs/run-report.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { normalisePlatformUrl, statePlatform } from '../../src/state/index.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import { expectNothingOpen, quietLogger, tempDir } from './delivery-fixtures.js';

const dir = tempDir('platforms');
const file = join(dir.path, 'items.csv');
const pipelines = join(dir.path, 'pipelines');
const prefix = uniquePrefix('platforms');
let north: RunningSimulator;
let south: RunningSimulator;
let redis: Redis;
let config: FerryConfig;
let workers: DeliveryWorker[] = [];

/** The shipped catalog, fanned out to both shops; south's prices are in SEK. */
function fanOutCatalog(): string {
  const shipped = readFileSync(new URL('../../config/pipelines/catalog.yaml', import.meta.url));
  return (
    `${shipped.toString()}\n` +
    [
      'platforms: [north, south]',
      'overrides:',
      '  south:',
      '    fields:',
      '      price.prices:',
      '        array:',
      '          - object:',
      '              amount:',
      '                column: Unit Price',
      '                type: decimal',
      "                decimalSeparator: ','",
      '                scale: 2',
      '                round: half-up',
      '                required: true',
      '              currency: { value: SEK }',
      '',
    ].join('\n')
  );
}

beforeAll(async () => {
  north = await startSimulator({ port: 0, seed: 11 });
  south = await startSimulator({ port: 0, seed: 12 });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(60, file, 7);
  mkdirSync(pipelines);
  writeFileSync(join(pipelines, 'catalog.yaml'), fanOutCatalog());
  config = configSchema.parse({
    redis: { url: TEST_REDIS_URL, prefix },
    interface: { baseUrl: north.url, auth: { type: 'bearer', token: 'dev-token' } },
    platforms: {
      north: { baseUrl: north.url, auth: { type: 'bearer', token: 'dev-token' } },
      south: { baseUrl: south.url, auth: { type: 'bearer', token: 'dev-token' } },
    },
    delivery: {
      concurrency: 4,
      attempts: 10,
      backoff: { baseMs: 20, capMs: 200 },
      shutdownTimeoutMs: 5_000,
      reportsDir: join(dir.path, 'reports'),
      // No probe: only the resume lets north go again.
      breaker: { threshold: 3, probeSeconds: 3600 },
    },
    pipelines: { dir: pipelines },
    log: { level: 'silent' },
  });
  const logger = quietLogger();
  workers = [
    await startDeliveryWorker({ config, logger }),
    await startDeliveryWorker({ config, logger }),
  ];
});

afterAll(async () => {
  for (const worker of workers) await worker.close();
  await north?.close();
  await south?.close();
  redis?.disconnect();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

const keys = () => deliveryKeys(prefix);

async function startBoth(source: string) {
  const targets = pipelineTargets('catalog', config);
  expect(targets).toEqual(['catalog@north', 'catalog@south']);
  return Promise.all(
    targets.map((pipeline) =>
      startRun({ config, redis, logger: quietLogger(), pipeline, source: { file: source } }),
    ),
  );
}

/** Each product's currency, as the shop holds its price. */
function prices(sim: RunningSimulator): Map<string, string> {
  const held = sim.state('prices') as { productId: string; prices: { currency: string }[] }[];
  return new Map(held.map((p) => [p.productId, String(p.prices[0]?.currency)]));
}

describe('one catalog, two shops', () => {
  it('fans out to both with the overrides, each against its own state; an unchanged rerun sends nothing', async () => {
    const started = await startBoth(file);
    const runs = await Promise.all(
      started.map((s) => followRun(redis, keys(), s.runId, () => undefined)),
    );
    expect(runs.map((r) => [r.pipeline, r.status])).toEqual([
      ['catalog@north', 'succeeded'],
      ['catalog@south', 'succeeded'],
    ]);
    const [toNorth, toSouth] = runs;
    expect(toNorth?.platform).toBe(normalisePlatformUrl(north.url));
    expect(toSouth?.platform).toBe(normalisePlatformUrl(south.url));
    expect(north.state('products')).toHaveLength(south.state('products').length);
    expect(north.stats().duplicates).toBe(0);
    expect(south.stats().duplicates).toBe(0);
    // South's override: every price in SEK; north's as the export says.
    expect(new Set(prices(south).values())).toEqual(new Set(['SEK']));
    expect([...prices(north).values()].some((c) => c !== 'SEK')).toBe(true);
    // Each platform's state is its own, bound to its shop.
    expect(await statePlatform(redis, prefix, 'catalog@north')).toBe(
      normalisePlatformUrl(north.url),
    );
    expect(await statePlatform(redis, prefix, 'catalog@south')).toBe(
      normalisePlatformUrl(south.url),
    );

    const before = [north.stats().requests, south.stats().requests];
    const again = await startBoth(file);
    expect(again.map((s) => s.enqueued)).toEqual([false, false]);
    expect([north.stats().requests, south.stats().requests]).toEqual(before);
  });

  it("north's credential refused blocks north only, without dead letters; south's run finishes", async () => {
    // Every price moved a little: both shops have work.
    const changed = pricesMoved('changed.csv', 1);
    north.setToken('rotated-by-the-shop');
    const [toNorth, toSouth] = await startBoth(changed);
    expect(toNorth?.enqueued && toSouth?.enqueued).toBe(true);

    const southRun = await followRun(redis, keys(), toSouth!.runId, () => undefined);
    expect(southRun.status).toBe('succeeded');
    await until(
      "north's run blocked",
      async () => (await loadRun(redis, keys(), toNorth!.runId)).status === 'blocked',
    );
    const dlq = createDeadLetterStore(redis, keys());
    expect(await dlq.count()).toBe(0);
    const northRun = await loadRun(redis, keys(), toNorth!.runId);
    expect(northRun.blockedReason ?? '').not.toBe('');

    // A refused credential names where north's is set, not the top-level one.
    const client = createInterfaceClient(platformConfig(config, 'north').interface, {
      platform: 'north',
    });
    try {
      const refused = await client
        .call({ operationId: 'categories.put', body: [{ externalId: 'X', name: 'X' }] })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toBeInstanceOf(AuthError);
      expect((refused as Error).message).toContain(
        'Check platforms.north.auth (or FERRY_PLATFORM_NORTH_TOKEN).',
      );
    } finally {
      await client.close();
    }

    // The shop's credential is back: a resume delivers north's run.
    north.setToken('dev-token');
    await resumeRun(redis, keys(), toNorth!.runId);
    const resumed = await followRun(redis, keys(), toNorth!.runId, () => undefined);
    expect(resumed.status).toBe('succeeded');
    expect(await dlq.count()).toBe(0);
    expect(north.stats().duplicates).toBe(0);
  });
});

/** The export with every price moved by `by` units. */
function pricesMoved(name: string, by: number): string {
  const moved = join(dir.path, name);
  const text = readFileSync(file, 'latin1').replace(/;(\d+),(\d\d);/g, (_m, whole, cents) => {
    return `;${Number(whole) + by},${cents};`;
  });
  writeFileSync(moved, text, 'latin1');
  return moved;
}

describe("each platform's dead letters, replays and undo", () => {
  it("a refusal by south is replayed to south; an undo of north's run restores north only", async () => {
    const refused = (south.state('products') as { externalId: string }[])[0]?.externalId;
    expect(refused).toBeDefined();
    south.setFaults({ rejectKeys: [refused as string] });
    const started = await startBoth(pricesMoved('moved-again.csv', 3));
    const [toNorth, toSouth] = await Promise.all(
      started.map((s) => followRun(redis, keys(), s.runId, () => undefined)),
    );
    expect(toNorth?.status).toBe('succeeded');
    expect(toSouth?.status).toBe('partial');
    const dlq = createDeadLetterStore(redis, keys());
    const letters = await dlq.list();
    expect(letters.map((l) => l.pipeline)).toEqual(['catalog@south']);

    // The shop lifts its rule: the replay goes to south, by south's config, and nothing to north.
    south.setFaults({ rejectKeys: [] });
    const before = { north: north.stats().requests, south: south.stats().requests };
    const replay = await replayDeadLetters({
      config,
      logger: quietLogger(),
      selection: { all: true },
      dryRun: false,
      localWorker: false,
    });
    expect(replay.runs.map((r) => [r.pipeline, r.status])).toEqual([
      ['catalog@south', 'succeeded'],
    ]);
    expect(await dlq.count()).toBe(0);
    expect(north.stats().requests).toBe(before.north);
    expect(south.stats().requests).toBeGreaterThan(before.south);

    // North's last run undone: north's prices back as they were, south's untouched.
    const southPrices = JSON.stringify(south.state('prices'));
    const northBefore = north.stats().requests;
    const undone = await undoRun({
      config,
      redis,
      logger: quietLogger(),
      runId: toNorth!.id,
    });
    expect(undone.undoRunId).toBeDefined();
    const undo = await followRun(redis, keys(), undone.undoRunId as string, () => undefined);
    expect(undo).toMatchObject({ pipeline: 'catalog@north', kind: 'undo', status: 'succeeded' });
    expect(north.stats().requests).toBeGreaterThan(northBefore);
    expect(JSON.stringify(south.state('prices'))).toBe(southPrices);
    expect(north.stats().duplicates).toBe(0);
  });
});

describe('a worker that does not know a platform', () => {
  it("blocks that platform's run, naming it, and a worker that knows it delivers it after a resume", async () => {
    const ownPrefix = uniquePrefix('platforms-unknown');
    const full = configSchema.parse({ ...config, redis: { ...config.redis, prefix: ownPrefix } });
    // The same installation, with a config that does not declare south.
    const northOnly = configSchema.parse({
      ...full,
      platforms: { north: full.platforms.north },
    });
    const k = deliveryKeys(ownPrefix);
    const logger = quietLogger();
    const partial = await startDeliveryWorker({ config: northOnly, logger });
    let runId = '';
    try {
      runId = (
        await startRun({ config: full, redis, logger, pipeline: 'catalog@south', source: { file } })
      ).runId;
      await until(
        'the run blocked',
        async () => (await loadRun(redis, k, runId)).status === 'blocked',
      );
      const blocked = await loadRun(redis, k, runId);
      expect(blocked.blockedReason).toContain('no platform "south"');
      expect(blocked.blockedReason).toContain('FERRY_PLATFORM_SOUTH_BASE_URL');
    } finally {
      await partial.close();
    }
    const knowing = await startDeliveryWorker({ config: full, logger });
    try {
      await resumeRun(redis, k, runId);
      expect((await followRun(redis, k, runId, () => undefined)).status).toBe('succeeded');
    } finally {
      await knowing.close();
      await deleteKeys(ownPrefix);
    }
  });
});

describe('a limited shop beside an unlimited one', () => {
  it("south's run finishes while north's limited run still has most of its requests to send", async () => {
    const limitedPrefix = uniquePrefix('platforms-limited');
    const limited = configSchema.parse({
      ...config,
      redis: { ...config.redis, prefix: limitedPrefix },
      platforms: {
        ...config.platforms,
        north: { ...config.platforms.north, delivery: { ratePerSecond: 2 } },
      },
      // One price a job: north has far more jobs than the 2 x 2 slots.
      delivery: { ...config.delivery, concurrency: 2, bundleSize: 1 },
    });
    north.reset();
    south.reset();
    const logger = quietLogger();
    const mine = [
      await startDeliveryWorker({ config: limited, logger }),
      await startDeliveryWorker({ config: limited, logger }),
    ];
    try {
      const [toNorth, toSouth] = await Promise.all(
        ['catalog@north', 'catalog@south'].map((pipeline) =>
          startRun({ config: limited, redis, logger, pipeline, source: { file } }),
        ),
      );
      const k = deliveryKeys(limitedPrefix);
      const southRun = await followRun(redis, k, toSouth!.runId, () => undefined);
      expect(southRun.status).toBe('succeeded');
      const northNow = await loadRun(redis, k, toNorth!.runId);
      expect(northNow.status).toBe('running');
      // One request a price: north's prices are what its rate spreads out.
      const prices = northNow.operations['products.prices.patch'];
      expect(prices?.planned).toBeGreaterThan(40);
      expect(prices?.delivered ?? 0).toBeLessThan((prices?.planned ?? 0) / 2);
      expect(south.stats().duplicates).toBe(0);
    } finally {
      for (const worker of mine) await worker.close(1_000);
      await deleteKeys(limitedPrefix);
    }
  });
});
