/**
 * Schedules (docs/SCHEDULES.md): a pipeline's `schedule:` checked at load; BullMQ job
 * schedulers kept in step with the pipeline files (sync, pause, resume); each tick one run
 * whatever the number of workers, a tick that finds the previous run going recorded as skipped;
 * ticks missed while every worker was down run once, late; daylight-saving changes neither skip
 * nor double a nightly tick.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { getNextMillis } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { configSchema, type FerryConfig } from '../../src/config/schema.js';
import { ConfigError } from '../../src/errors/index.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { recentRuns } from '../../src/runs/run-index.js';
import type { RunRecord } from '../../src/runs/run-record.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { listSchedules } from '../../src/schedules/list-schedules.js';
import { pauseSchedule, resumeSchedule } from '../../src/schedules/pause-schedule.js';
import { openScheduleQueue } from '../../src/schedules/schedule-queue.js';
import { startScheduleWorker } from '../../src/schedules/schedule-worker.js';
import { syncSchedules } from '../../src/schedules/sync-schedules.js';
import { pickUpExports } from '../../src/schedules/tick-pickup.js';
import type { TickContext } from '../../src/schedules/tick-run.js';
import { fetchIfChanged } from '../../src/schedules/tick-url.js';
import { pickupSchema } from '../../src/pipeline/definition/schedule-schema.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';

const h = useDeliveryHarness('schedules', { seed: 11 }, async (harness) => {
  await generateItems(40, join(harness.dir, 'items.csv'), 2);
});
const prefixes: string[] = [];
afterAll(async () => {
  for (const p of prefixes) await deleteKeys(p);
});

const catalog = parse(
  readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8'),
) as Record<string, Record<string, unknown>>;

/**
 * Writes <dir>/<name>.yaml: the catalog pipeline on the test's items (or on a folder's files),
 * with `schedule`.
 */
function writePipeline(
  dir: string,
  name: string,
  schedule?: Record<string, unknown>,
  from?: { folder: string } | { url: string },
): void {
  const source = { ...catalog.source };
  delete source.file;
  const file = {
    ...catalog,
    source: !from
      ? { ...source, file: join(h.dir, 'items.csv') }
      : 'folder' in from
        ? { ...source, folder: from.folder, pattern: '*.csv' }
        : { ...source, url: from.url },
    ...(schedule ? { schedule } : {}),
  };
  writeFileSync(join(dir, `${name}.yaml`), stringify(file));
}

/** A config of its own (key prefix, pipelines folder) against the file's simulator. */
function setup(label: string): { config: FerryConfig; dir: string } {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  const dir = join(h.dir, label);
  mkdirSync(dir);
  const base = testConfig(prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  return { config: { ...base, pipelines: { ...base.pipelines, dir } }, dir };
}

/** What a tick of the pipeline `nightly` works with. */
function tickContext(config: FerryConfig): TickContext {
  return {
    config,
    redis: h.redis,
    keys: deliveryKeys(config.redis.prefix),
    pipeline: 'nightly',
    timing: { scheduledAt: Date.now() },
    logger: quietLogger(),
    signal: new AbortController().signal,
  };
}

async function runsOf(config: FerryConfig, pipeline: string): Promise<RunRecord[]> {
  const runs = await recentRuns(h.redis, deliveryKeys(config.redis.prefix), {
    pipeline,
    limit: 100,
  });
  return runs.reverse();
}

describe('a schedule in a pipeline file', () => {
  it.each([
    [{ cron: '61 2 * * *' }, 'schedule.cron', 'expected a cron pattern of 5 fields'],
    [{ cron: '0 2 * *' }, 'schedule.cron', 'expected a cron pattern of 5 fields'],
    [{ cron: '0 2 * * *', tz: 'Mars/Olympus' }, 'schedule.tz', 'expected an IANA time zone'],
  ])('is refused at load when wrong: %j', (schedule, path, message) => {
    const { config, dir } = setup(`bad-${path}-${schedule.cron.length}`);
    writePipeline(dir, 'nightly', schedule);
    const error = (() => {
      try {
        loadPipeline('nightly', config);
      } catch (e) {
        return e;
      }
      return undefined;
    })() as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.issues).toEqual([{ path, message: expect.stringContaining(message) }]);
  });

  it('reads five fields, or six with seconds, with UTC as the default zone', () => {
    const { config, dir } = setup('good');
    writePipeline(dir, 'five', { cron: '0 2 * * *' });
    writePipeline(dir, 'six', { cron: '*/10 * * * * *', tz: 'Europe/Berlin' });
    expect(loadPipeline('five', config).schedule).toEqual({ cron: '0 2 * * *', tz: 'UTC' });
    expect(loadPipeline('six', config).schedule?.tz).toBe('Europe/Berlin');
  });
});

describe('daylight-saving changes', () => {
  /** The next `n` ticks after `from`, as BullMQ's job schedulers compute them. */
  const ticks = (pattern: string, tz: string, from: string, n: number): string[] => {
    const out: string[] = [];
    let at = Date.parse(from);
    for (let i = 0; i < n; i++) {
      at = getNextMillis(at, { pattern, tz })!;
      out.push(new Date(at).toISOString());
    }
    return out;
  };

  it('neither skip nor double a nightly run at 02:30 in Europe/Berlin', () => {
    // 2026-03-29: 02:00 CET becomes 03:00 CEST, so 02:30 does not exist that night: it runs at
    // 03:30 CEST, once. 2026-10-25: 03:00 CEST becomes 02:00 CET, so 02:30 comes twice: once.
    expect(ticks('30 2 * * *', 'Europe/Berlin', '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
    expect(ticks('30 2 * * *', 'Europe/Berlin', '2026-10-23T12:00:00Z', 3)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });
});

describe('schedules kept in step with the pipeline files', () => {
  it('syncs, removes, pauses and resumes; a broken file keeps its schedule', async () => {
    const { config, dir } = setup('sync');
    writePipeline(dir, 'nightly', { cron: '0 2 * * *', tz: 'Europe/Berlin' });
    writePipeline(dir, 'prices', { cron: '*/15 * * * *' });
    writePipeline(dir, 'adhoc');
    const queue = openScheduleQueue(h.redis, deliveryKeys(config.redis.prefix));
    try {
      expect(await syncSchedules(config, h.redis, queue)).toEqual({
        scheduled: ['nightly', 'prices'],
        removed: [],
        problems: [],
      });
      const listed = await listSchedules(config, h.redis, queue);
      expect(listed.map((v) => [v.pipeline, v.cron, v.tz, v.paused])).toEqual([
        ['nightly', '0 2 * * *', 'Europe/Berlin', false],
        ['prices', '*/15 * * * *', 'UTC', false],
      ]);
      // 02:00 in Berlin is 00:00 or 01:00 UTC, depending on the season.
      expect(listed[0]!.nextRunAt).toMatch(/T0[01]:00:00\.000Z$/);

      writePipeline(dir, 'prices');
      expect(await syncSchedules(config, h.redis, queue)).toMatchObject({ removed: ['prices'] });
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual(['pipeline:nightly']);

      await pauseSchedule(config, h.redis, queue, 'nightly');
      expect(await syncSchedules(config, h.redis, queue)).toMatchObject({ scheduled: [] });
      expect(await listSchedules(config, h.redis, queue)).toMatchObject([
        { pipeline: 'nightly', paused: true, nextRunAt: null },
      ]);
      await expect(pauseSchedule(config, h.redis, queue, 'adhoc')).rejects.toMatchObject({
        code: 'FERRY_USAGE',
      });
      await resumeSchedule(config, h.redis, queue, 'nightly');
      expect(await listSchedules(config, h.redis, queue)).toMatchObject([
        { pipeline: 'nightly', paused: false, nextRunAt: expect.any(String) },
      ]);

      writeFileSync(join(dir, 'nightly.yaml'), 'source: [unclosed\n');
      const broken = await syncSchedules(config, h.redis, queue);
      expect(broken.problems.map((p) => p.pipeline)).toEqual(['nightly']);
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual(['pipeline:nightly']);
    } finally {
      await queue.close();
    }
  });
});

describe('ticks', () => {
  it('lists the last run on each platform a pipeline delivers to, under its name there', async () => {
    const { config: base, dir } = setup('platforms');
    // The same simulator under another address: another platform to Ferry.
    const north = {
      baseUrl: h.sim.url.replace('127.0.0.1', 'localhost'),
      auth: base.interface.auth,
    };
    const config = configSchema.parse({ ...base, platforms: { north } });
    writePipeline(dir, 'nightly', { cron: '0 2 * * *' });
    writeFileSync(
      join(dir, 'nightly.yaml'),
      `${readFileSync(join(dir, 'nightly.yaml'), 'utf8')}platforms: [default, north]\n`,
    );
    writePipeline(dir, 'northern', { cron: '0 3 * * *' });
    writeFileSync(
      join(dir, 'northern.yaml'),
      `${readFileSync(join(dir, 'northern.yaml'), 'utf8')}platform: north\n`,
    );
    const queue = openScheduleQueue(h.redis, deliveryKeys(config.redis.prefix));
    try {
      await syncSchedules(config, h.redis, queue);
      const before = await listSchedules(config, h.redis, queue);
      expect(before.map((v) => [v.pipeline, v.lastRuns])).toEqual([
        ['nightly', []],
        ['northern', []],
      ]);
      const start = (pipeline: string) =>
        startRun({ config, redis: h.redis, logger: quietLogger(), pipeline, trigger: 'schedule' });
      const fanned = [await start('nightly'), await start('nightly@north')];
      const northern = await start('northern');
      const [nightly, north1] = await listSchedules(config, h.redis, queue);
      expect(nightly!.lastRuns.map((r) => [r.pipeline, r.runId])).toEqual([
        ['nightly', fanned[0]!.runId],
        ['nightly@north', fanned[1]!.runId],
      ]);
      expect(nightly!.lastRun).toMatchObject({
        pipeline: 'nightly@north',
        runId: fanned[1]!.runId,
      });
      // A pipeline on north alone runs as northern@north: once listed as never run.
      expect(north1!.lastRun).toMatchObject({ pipeline: 'northern@north', runId: northern.runId });
    } finally {
      await queue.close();
    }
  });

  it('start one run per tick across three workers; a tick during a run is a skipped run', async () => {
    const { config, dir } = setup('ticks');
    writePipeline(dir, 'nightly', { cron: '* * * * * *' });
    h.sim.reset();
    // Each request takes a second: the first run outlasts the next ticks.
    h.sim.setFaults({ latency: [1000, 1000] });
    const delivery = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      const workers = await Promise.all(
        [1, 2, 3].map(() => startScheduleWorker({ config, logger: quietLogger() })),
      );
      try {
        await until(
          'three ticks recorded',
          async () => (await runsOf(config, 'nightly')).length >= 3,
        );
      } finally {
        for (const w of workers) await w.close();
      }
      const runs = await runsOf(config, 'nightly');
      const started = runs.filter((r) => r.status !== 'skipped');
      expect(started).toHaveLength(1);
      const skipped = runs.filter((r) => r.status === 'skipped');
      expect(skipped.length).toBeGreaterThanOrEqual(2);
      for (const s of skipped) {
        expect(s.reason).toBe(`the previous run ${started[0]!.id} is still going`);
      }
      expect(runs.every((r) => r.trigger === 'schedule')).toBe(true);
      // One record per tick: each tick's time (whole seconds) once.
      const ticksAt = runs.map((r) => r.scheduledAt!);
      expect(new Set(ticksAt).size).toBe(runs.length);
      expect(ticksAt.every((t) => t % 1000 === 0)).toBe(true);

      h.sim.setFaults({ latency: [0, 0] });
      await until(
        'the scheduled run finished',
        async () => (await runsOf(config, 'nightly'))[0]!.status !== 'running',
        60_000,
      );
    } finally {
      await delivery.close();
    }
  });

  it('run ticks missed while every worker was down once, late, saying by how much', async () => {
    const { config, dir } = setup('missed');
    writePipeline(dir, 'nightly', { cron: '* * * * * *' });
    h.sim.reset();
    const queue = openScheduleQueue(h.redis, deliveryKeys(config.redis.prefix));
    await syncSchedules(config, h.redis, queue);
    await queue.close();
    // No worker for six ticks.
    await new Promise((resolve) => setTimeout(resolve, 6500));
    const back = Date.now();
    const delivery = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      const worker = await startScheduleWorker({ config, logger: quietLogger() });
      try {
        await until('the late tick ran', async () => (await runsOf(config, 'nightly')).length >= 1);
        await new Promise((resolve) => setTimeout(resolve, 1500));
      } finally {
        await worker.close();
      }
      const runs = await runsOf(config, 'nightly');
      const missed = runs.filter((r) => r.scheduledAt! < back - 1000);
      expect(missed).toHaveLength(1);
      expect(missed[0]!.status).not.toBe('skipped');
      expect(missed[0]!.lateSeconds).toBeGreaterThanOrEqual(5);
      await until(
        'the late run finished',
        async () => (await runsOf(config, 'nightly'))[0]!.status !== 'running',
        60_000,
      );
    } finally {
      await delivery.close();
    }
  });
});

describe("tonight's export out of a folder", () => {
  const HOUR = 3600;
  /** A folder of exports: each name gets the items file, last modified `ageSeconds` ago. */
  function exportsFolder(dir: string, files: Record<string, number | string>): string {
    const folder = join(dir, 'in');
    mkdirSync(folder);
    const now = Date.now() / 1000;
    for (const [name, spec] of Object.entries(files)) {
      const path = join(folder, name);
      if (typeof spec === 'string') writeFileSync(path, spec);
      else copyFileSync(join(h.dir, 'items.csv'), path);
      const age = typeof spec === 'number' ? spec : HOUR;
      utimesSync(path, now - age, now - age);
    }
    return folder;
  }

  it('reads the newest quiet export once, archives it and the older ones, leaves one being written', async () => {
    const { config, dir } = setup('pickup-newest');
    const folder = exportsFolder(dir, {
      'items-1.csv': 3 * HOUR,
      'items-2.csv': 2 * HOUR,
      'items-3.csv': 1, // still being written
    });
    writePipeline(dir, 'nightly', { cron: '0 2 * * *', pickup: {} }, { folder });
    h.sim.reset();
    const delivery = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      await pickUpExports(tickContext(config), pickupSchema.parse({}));
      const [run] = await runsOf(config, 'nightly');
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'schedule' });
      expect(run!.file).toBe(join(folder, 'items-2.csv'));
      expect(readdirSync(join(folder, 'archive')).sort()).toEqual(['items-1.csv', 'items-2.csv']);
      expect(readdirSync(folder).sort()).toEqual(['archive', 'items-3.csv']);

      // The next tick: nothing new and quiet; the one being written is named.
      await pickUpExports(tickContext(config), pickupSchema.parse({}));
      const runs = await runsOf(config, 'nightly');
      expect(runs).toHaveLength(2);
      expect(runs[1]).toMatchObject({
        status: 'skipped',
        reason: `no new export in ${folder} matching "*.csv" (1 still being written)`,
      });
      expect(h.sim.stats().byOperation['products.delete'] ?? 0).toBe(0);
    } finally {
      await delivery.close();
    }
  });

  it('reads all exports oldest first, a run each; a refused one goes to the error folder', async () => {
    const { config, dir } = setup('pickup-all');
    const folder = exportsFolder(dir, {
      'b-monday.csv': 3 * HOUR,
      'a-tuesday.csv': 2 * HOUR,
      'c-empty.csv': '',
    });
    writePipeline(dir, 'nightly', { cron: '0 2 * * *', pickup: { take: 'all' } }, { folder });
    h.sim.reset();
    const delivery = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      await pickUpExports(tickContext(config), pickupSchema.parse({ take: 'all' }));
      const runs = await runsOf(config, 'nightly');
      expect(runs.map((r) => [r.file ?? null, r.status])).toEqual([
        [join(folder, 'b-monday.csv'), 'succeeded'],
        [join(folder, 'a-tuesday.csv'), 'succeeded'],
        [null, 'skipped'],
      ]);
      expect(runs[2]!.reason).toMatch(/^FERRY_NO_RECORDS: /);
      expect(readdirSync(join(folder, 'archive')).sort()).toEqual([
        'a-tuesday.csv',
        'b-monday.csv',
      ]);
      expect(readdirSync(join(folder, 'error'))).toEqual(['c-empty.csv']);
      expect(existsSync(join(folder, 'c-empty.csv'))).toBe(false);
    } finally {
      await delivery.close();
    }
  });

  it('is refused at load without a folder source', () => {
    const { config, dir } = setup('pickup-file');
    writePipeline(dir, 'nightly', { cron: '0 2 * * *', pickup: {} });
    expect(() => loadPipeline('nightly', config)).toThrow(
      /schedule\.pickup: pickup takes files out of a folder/,
    );
  });
});

describe('a URL source on a schedule', () => {
  it('is fetched only when it changed (If-None-Match), else the tick is a skipped run', async () => {
    const { config, dir } = setup('url');
    let etag = '"v1"';
    const asked: Array<string | undefined> = [];
    const server = createServer((req, res) => {
      asked.push(req.headers['if-none-match']);
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { etag, 'content-type': 'text/csv' });
      res.end(readFileSync(join(h.dir, 'items.csv')));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/exports/items.csv`;
    writePipeline(dir, 'nightly', { cron: '0 2 * * *' }, { url });
    h.sim.reset();
    const delivery = await startDeliveryWorker({ config, logger: quietLogger() });
    try {
      await fetchIfChanged(tickContext(config), url);
      await until(
        'the first run finished',
        async () => (await runsOf(config, 'nightly'))[0]!.status !== 'running',
      );
      await fetchIfChanged(tickContext(config), url);
      etag = '"v2"';
      await fetchIfChanged(tickContext(config), url);
      expect(asked).toEqual([undefined, '"v1"', '"v1"']);
      const runs = await runsOf(config, 'nightly');
      expect(runs.map((r) => [r.status === 'skipped' ? 'skipped' : 'run', r.file ?? null])).toEqual(
        [
          ['run', url],
          ['skipped', null],
          ['run', url],
        ],
      );
      expect(runs[1]!.reason).toBe(
        `no new export: ${url} has not changed since it was last read (HTTP 304).`,
      );
    } finally {
      await delivery.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
