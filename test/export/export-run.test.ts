/**
 * `ferry export` against real Redis and the simulator over TCP: the orders as an ERP CSV that
 * Ferry's csv connector reads back as the platform holds them; the cursor (only new orders next
 * time, nothing new writes nothing, --since, --dry-run moves nothing); failures that publish
 * nothing and keep the cursor, with the interface's stable codes; a run that published its file
 * but stopped before the cursor moved, finished by the next into the same file; one export of a
 * pipeline at a time; no partial file ever visible; runs listed as runs, scheduled ones too.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { loadExportPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { testConfig } from '../pipeline/helpers.js';
import { main } from '../../src/cli/main.js';
import { runExport, type ExportResult } from '../../src/export/run-export.js';
import { isFerryError } from '../../src/errors/index.js';
import { formatInstant } from '../../src/pipeline/convert/format-date.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { exportOrSkip } from '../../src/schedules/tick-run.js';
import { readPipelines } from '../../src/serve/routes/api-pipelines.js';
import type { ServeContext } from '../../src/serve/serve-context.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  expectedRows,
  exportConfig,
  exportHash,
  ordersPipeline,
  readErpCsv,
  visibleFiles,
  writeExportConfigFile,
  writePipeline,
  type SimOrder,
} from './export-fixtures.js';

const h = useDeliveryHarness('export-run', { seed: 11 });
const logger = quietLogger();
let out: string;
let configFile: string;

const config = () => exportConfig(h.prefix, h.sim.url, h.dir);
const orders = () => h.sim.state('orders') as SimOrder[];

async function exportOrders(extra: Partial<Parameters<typeof runExport>[0]> = {}) {
  return await runExport({
    config: config(),
    redis: h.redis,
    logger,
    pipeline: 'orders',
    ...extra,
  });
}

async function ferry(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, FERRY_CONFIG: configFile };
  for (const name of ['REDIS_URL', 'FERRY_PREFIX', 'FERRY_BASE_URL', 'FERRY_TOKEN']) {
    delete env[name];
  }
  const code = await main(args, {
    stdout: { write: (s: string) => stdout.push(s) } as unknown as NodeJS.WriteStream,
    stderr: { write: (s: string) => stderr.push(s) } as unknown as NodeJS.WriteStream,
    env,
  });
  return { code, out: stdout.join(''), err: stderr.join('') };
}

/** The ids of the orders in an export file, once each. */
async function idsIn(path: string): Promise<string[]> {
  return [...new Set((await readErpCsv(path)).map((r) => r.orderId!))];
}

beforeAll(() => {
  out = join(h.dir, 'out');
  writePipeline(h.dir, 'orders', ordersPipeline(h.dir, 'out'));
  configFile = writeExportConfigFile(h.prefix, h.sim.url, h.dir);
});

describe('ferry export', () => {
  let first: ExportResult;

  it('writes the orders as an ERP CSV that Ferry reads back as the platform holds them', async () => {
    first = await exportOrders();
    const held = orders();
    expect(held).toHaveLength(240);
    expect(first).toMatchObject({
      status: 'succeeded',
      operation: 'orders.get',
      items: 240,
      cursor: { before: null, after: held[239]!.id },
    });
    expect(first.files).toHaveLength(1);
    const [file] = first.files;
    expect(file!.path).toMatch(/orders-\d{4}-\d{2}-\d{2}-000001\.csv$/);
    const rows = await readErpCsv(file!.path);
    expect(rows).toEqual(expectedRows(held));
    expect(file!.records).toBe(rows.length);
    expect(first.records).toBe(rows.length);
    expect(readFileSync(`${file!.path}.sha256`, 'utf8')).toBe(
      `${file!.sha256}  ${file!.path.split('/').pop()}\n`,
    );
    expect(await exportHash(h.redis, h.prefix, 'orders')).toEqual({
      cursor: held[239]!.id,
      seq: '1',
    });
    const runs = await ferry(['runs', '--json']);
    expect(JSON.parse(runs.out)).toContainEqual(
      expect.objectContaining({
        runId: first.runId,
        pipeline: 'orders',
        kind: 'export',
        trigger: 'cli',
        status: 'succeeded',
        plannedItems: rows.length,
        deliveredItems: rows.length,
      }),
    );
  });

  it('exports only the orders that arrived since, into the next file; nothing new writes nothing', async () => {
    const added = h.sim.addOrders(25);
    const next = await exportOrders();
    expect(next.cursor).toEqual({ before: first.cursor.after, after: added[24] });
    expect(next.files[0]!.path).toMatch(/-000002\.csv$/);
    expect(await idsIn(next.files[0]!.path)).toEqual(added);
    const idle = await exportOrders();
    expect(idle).toMatchObject({ status: 'succeeded', items: 0, records: 0, files: [] });
    expect(idle.cursor).toEqual({ before: added[24], after: added[24] });
    expect(visibleFiles(out)).toHaveLength(4); // two files, two manifests
  });

  it('--dry-run reads and reports what it would write, and moves nothing', async () => {
    const added = h.sim.addOrders(5);
    const before = await exportHash(h.redis, h.prefix, 'orders');
    const dry = await ferry(['export', 'orders', '--dry-run', '--json']);
    expect(dry.code, dry.err).toBe(0);
    const doc = JSON.parse(dry.out) as ExportResult;
    expect(doc).toMatchObject({ dryRun: true, items: 5, status: 'succeeded' });
    expect(doc.cursor).toEqual({ before: before.cursor, after: added[4] });
    expect(visibleFiles(out)).toHaveLength(4);
    expect(await exportHash(h.redis, h.prefix, 'orders')).toEqual(before);
    const real = await exportOrders();
    expect(real.files).toEqual(doc.files); // the same name and the very same bytes
  });

  it('--since re-exports from a value of the cursor field, into another folder', async () => {
    const held = orders();
    const since = held[held.length - 3]!.id;
    const other = join(h.dir, 'again');
    const again = await exportOrders({ since, out: other });
    expect(again.cursor.before).toBe(since);
    expect(await idsIn(again.files[0]!.path)).toEqual(held.slice(-3).map((o) => o.id));
    expect(again.files[0]!.path.startsWith(other)).toBe(true);
    expect((await exportHash(h.redis, h.prefix, 'orders')).cursor).toBe(held.at(-1)!.id);
  });

  it('fails with the interface error code, publishing nothing and keeping the cursor', async () => {
    h.sim.addOrders(3);
    const before = await exportHash(h.redis, h.prefix, 'orders');
    const files = visibleFiles(out);
    h.sim.setToken('rotated');
    try {
      const cli = await ferry(['export', 'orders', '--json']);
      expect(cli.code).toBe(1);
      const doc = JSON.parse(cli.out) as ExportResult;
      expect(doc).toMatchObject({
        status: 'failed',
        files: [],
        error: { code: 'FERRY_HTTP_AUTH' },
        cursor: { before: before.cursor, after: before.cursor },
      });
      const runs = JSON.parse((await ferry(['runs', '--json'])).out) as { runId: string }[];
      expect(runs.find((r) => r.runId === doc.runId)).toMatchObject({
        status: 'failed',
        reason: expect.stringMatching(/^FERRY_HTTP_AUTH: /),
      });
    } finally {
      h.sim.setToken('dev-token');
    }
    h.sim.setFaults({ failRate: 0.3 }); // transient: tried again, and it goes through
    try {
      expect((await exportOrders()).items).toBe(3);
    } finally {
      h.sim.setFaults({ failRate: 0 });
    }
    expect(visibleFiles(out)).toHaveLength(files.length + 2);
    const refused = ordersPipeline(h.dir, 'out');
    refused.read.query = { colour: 'red' }; // the platform answers 400 VALIDATION_FAILED
    writePipeline(h.dir, 'refused', refused);
    const bad = await runExport({ config: config(), redis: h.redis, logger, pipeline: 'refused' });
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'FERRY_HTTP_PERMANENT' } });
    expect(visibleFiles(out)).toHaveLength(files.length + 2);
    expect(readdirSync(out).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('stops at Ctrl-C with nothing published and the cursor where it was', async () => {
    h.sim.addOrders(300);
    const before = await exportHash(h.redis, h.prefix, 'orders');
    const files = visibleFiles(out);
    const stop = new AbortController();
    h.sim.setFaults({ latency: [40, 40] });
    try {
      setTimeout(() => stop.abort(), 60);
      const stopped = await exportOrders({ signal: stop.signal });
      expect(stopped).toMatchObject({ status: 'failed', error: { code: 'FERRY_INTERRUPTED' } });
    } finally {
      h.sim.setFaults({ latency: null });
    }
    expect(visibleFiles(out)).toEqual(files);
    expect(readdirSync(out).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(await exportHash(h.redis, h.prefix, 'orders')).toEqual(before);
    expect((await exportOrders()).items).toBe(300);
  });

  it('stops on a listing out of the cursor order, or an item a field rejects, naming them', async () => {
    writePipeline(h.dir, 'shops', {
      direction: 'export',
      read: { operation: 'microshops.get', cursor: { field: 'name' } }, // listed by externalId
      fields: { shop: 'externalId', name: 'name' },
      target: { folder: join(h.dir, 'shops'), file: 'shops-{seq}.json', format: 'json' },
    });
    const shops = await runExport({ config: config(), redis: h.redis, logger, pipeline: 'shops' });
    expect(shops).toMatchObject({ status: 'failed', error: { code: 'FERRY_EXPORT_LISTING' } });
    expect(shops.error!.message).toMatch(/not in ascending order of name/);
    expect(visibleFiles(join(h.dir, 'shops'))).toEqual([]);

    const strict = ordersPipeline(h.dir, 'out');
    strict.fields.phone = { column: 'customer.phone', required: true };
    writePipeline(h.dir, 'strict', strict);
    const first = orders()[0]!.id;
    const bad = await runExport({ config: config(), redis: h.redis, logger, pipeline: 'strict' });
    expect(bad).toMatchObject({ status: 'failed', error: { code: 'FERRY_EXPORT_RECORD' } });
    expect(bad.error!.message).toContain(`item ${first}, field customer.phone: required`);
    expect(await exportHash(h.redis, h.prefix, 'strict')).toEqual({});
  });

  it('exports the Z-reports of closed days with the shipped zreports-export', async () => {
    const shipped = loadExportPipeline('zreports-export', testConfig);
    expect(shipped.read.operation).toBe('reports.zReport.get');
    const file = parse(
      readFileSync(join(PROJECT_ROOT, 'config/pipelines/zreports-export.yaml'), 'utf8'),
    ) as { target: Record<string, unknown> };
    file.target.folder = join(h.dir, 'z');
    writePipeline(h.dir, 'zreports', file);
    const done = await runExport({
      config: config(),
      redis: h.redis,
      logger,
      pipeline: 'zreports',
    });
    const held = (await (
      await fetch(`${h.sim.url}/external/api/reports/z-report?pageSize=500`, {
        headers: { authorization: 'Bearer dev-token' },
      })
    ).json()) as { items: { externalId: string; grossSales: string; date: string }[] };
    expect(done.items).toBe(held.items.length);
    const rows = await readErpCsv(done.files[0]!.path);
    expect(rows.map((r) => r.reportId)).toEqual(held.items.map((z) => z.externalId));
    expect(rows[0]).toMatchObject({
      grossSales: held.items[0]!.grossSales.replace('.', ','),
      date: held.items[0]!.date.split('-').reverse().join('.'),
    });
    expect(done.cursor.after).toBe(held.items.at(-1)!.externalId);
  });

  it('finishes a run that published but stopped before the cursor moved: same orders, same file', async () => {
    const added = h.sim.addOrders(7);
    const state = await exportHash(h.redis, h.prefix, 'orders');
    const seq = String(Number(state.seq) + 1).padStart(6, '0');
    const name = `orders-${formatInstant(Date.now(), 'yyyy-mm-dd', 'Europe/Oslo')}-${seq}.csv`;
    mkdirSync(join(out, `${name}.sha256`, 'blocker'), { recursive: true }); // its manifest fails
    const broken = await exportOrders();
    expect(broken).toMatchObject({ status: 'failed', error: { code: 'FERRY_EXPORT_WRITE' } });
    const published = join(out, name);
    const mtime = statSync(published).mtimeMs;
    expect(await idsIn(published)).toEqual(added);
    const pending = await exportHash(h.redis, h.prefix, 'orders');
    expect(pending.cursor).toBe(state.cursor);
    expect(JSON.parse(pending.pending!)).toMatchObject({ file: name, after: added[6] });

    rmSync(join(out, `${name}.sha256`), { recursive: true });
    const later = h.sim.addOrders(2);
    const finished = await exportOrders();
    expect(finished).toMatchObject({
      status: 'succeeded',
      recovered: { runId: broken.runId },
      items: 7,
      cursor: { before: state.cursor, after: added[6] },
    });
    expect(finished.files.map((f) => f.path)).toEqual([published]);
    expect(statSync(published).mtimeMs).toBe(mtime); // the same bytes: left as they were
    expect(readFileSync(`${published}.sha256`, 'utf8')).toContain(name);
    const after = await exportHash(h.redis, h.prefix, 'orders');
    expect(after).toEqual({ cursor: added[6], seq: String(Number(state.seq) + 1) });
    const rest = await exportOrders();
    expect(await idsIn(rest.files[0]!.path)).toEqual(later);
  });

  it('refuses a file name that is taken, and a second export of the pipeline at once', async () => {
    const fixed = ordersPipeline(h.dir, 'fixed');
    fixed.target.file = 'orders.csv';
    writePipeline(h.dir, 'fixed', fixed);
    const once = await runExport({ config: config(), redis: h.redis, logger, pipeline: 'fixed' });
    expect(once.status).toBe('succeeded');
    h.sim.addOrders(1);
    const twice = await runExport({ config: config(), redis: h.redis, logger, pipeline: 'fixed' });
    expect(twice).toMatchObject({ status: 'failed', error: { code: 'FERRY_EXPORT_FILE_EXISTS' } });
    expect(twice.cursor.after).toBe(once.cursor.after);

    h.sim.setFaults({ latency: [150, 150] });
    try {
      const both = await Promise.allSettled([exportOrders(), exportOrders()]);
      const refused = both.filter((b) => b.status === 'rejected');
      expect(both.filter((b) => b.status === 'fulfilled')).toHaveLength(1);
      expect(refused).toHaveLength(1);
      const reason = (refused[0] as PromiseRejectedResult).reason as unknown;
      expect(isFerryError(reason) && reason.code).toBe('FERRY_RUN_ACTIVE');
    } finally {
      h.sim.setFaults({ latency: null });
    }
  });

  it('never shows a partial file: a reader of the folder sees the whole file or none', async () => {
    const folder = join(h.dir, 'watched');
    writePipeline(h.dir, 'watched', ordersPipeline(h.dir, 'watched', 50));
    h.sim.addOrders(2_000);
    h.sim.setFaults({ latency: [2, 2] });
    const seen: { name: string; size: number }[] = [];
    let done = false;
    const watching = (async () => {
      for (;;) {
        const last = done; // one more look once the run is over
        for (const name of visibleFiles(folder)) {
          seen.push({ name, size: statSync(join(folder, name)).size });
        }
        if (last) break;
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    let result: ExportResult;
    try {
      result = await runExport({ config: config(), redis: h.redis, logger, pipeline: 'watched' });
    } finally {
      done = true;
      await watching;
      h.sim.setFaults({ latency: null });
    }
    const path = result.files[0]!.path;
    const final = statSync(path).size;
    const csv = seen.filter((s) => s.name.endsWith('.csv'));
    expect(readdirSync(folder).some((n) => n.endsWith('.tmp'))).toBe(false);
    for (const s of csv) expect(s.size).toBe(final);
    expect(final).toBeGreaterThan(300_000); // written to its temporary name in several pieces
    expect(csv.length).toBeGreaterThan(0);
  });

  it('runs on a schedule tick as an export, and lists as one in the console', async () => {
    h.sim.addOrders(4);
    const keys = deliveryKeys(h.prefix);
    const timing = { scheduledAt: Date.now() };
    const tick = { config: config(), redis: h.redis, keys, pipeline: 'orders', logger, timing };
    await exportOrSkip({ ...tick, signal: new AbortController().signal });
    const runs = JSON.parse((await ferry(['runs', '--pipeline', 'orders', '--json'])).out);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', kind: 'export', status: 'succeeded' });
    const views = await readPipelines({ config: config(), redis: h.redis, keys } as ServeContext);
    expect(views.find((v) => v.name === 'orders')).toMatchObject({
      direction: 'export',
      lastRun: { runId: runs[0].runId, status: 'succeeded' },
    });
  });
});
