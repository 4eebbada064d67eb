/**
 * Run kinds on real Redis and the simulator: an undo is recorded as kind `undo` with `undoOf`,
 * claims no source file, is counted under its kind in ferry_runs_total, and neither moves the
 * pipeline's last success nor stands for the pipeline (the overview's status); a replay's page
 * names the runs it replays. Before, an undo was a `sync` run of "examples/items.csv · 0 rows read"
 * that painted the night green and moved the gauge.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { undoRun } from '../../src/orchestrate/undo-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { lastSuccessField, runsField } from '../../src/runs/metrics/metric-fields.js';
import { lineOf } from '../../src/runs/run-line.js';
import { recentRuns } from '../../src/runs/run-index.js';
import { buildRunReport } from '../../src/runs/run-report.js';
import { runBody } from '../../src/serve/pages/run-page.js';
import { itemRow, runCatalog } from '../undo/catalog-runs.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';

const PRODUCTS = Array.from({ length: 10 }, (_, i) => `P${String(i + 1).padStart(3, '0')}`);

const h = useDeliveryHarness('run-kinds', { seed: 7 });
const keys = () => deliveryKeys(h.prefix);
let config: FerryConfig;
let worker: DeliveryWorker;

beforeAll(async () => {
  config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
});

afterAll(async () => {
  await worker.close();
});

const operator = { name: 'ops', role: 'operator' as const };

it('records an undo as kind undo, of its run, reading no file, never the night that succeeded', async () => {
  await runCatalog(
    h,
    config,
    'night1.csv',
    PRODUCTS.map((no, i) => itemRow(no, `${10 + i},50`)),
  );
  const { runId: night2 } = await runCatalog(
    h,
    config,
    'night2.csv',
    PRODUCTS.map((no, i) => itemRow(no, `${20 + i},50`)),
  );
  const lastSuccess = await h.redis.hget(keys().metrics, lastSuccessField('catalog'));
  expect(lastSuccess).not.toBeNull();

  const undo = await undoRun({ config, redis: h.redis, logger: quietLogger(), runId: night2 });
  const undoId = undo.undoRunId!;
  expect((await followRun(h.redis, keys(), undoId, () => undefined)).status).toBe('succeeded');

  const report = await buildRunReport(
    h.redis,
    keys(),
    createDeadLetterStore(h.redis, keys()),
    undoId,
  );
  expect(report).toMatchObject({ kind: 'undo', undoOf: night2 });
  expect(report.file).toBeUndefined();
  const [line] = await recentRuns(h.redis, keys(), { pipeline: 'catalog', limit: 1 });
  expect(lineOf(line!, Date.now())).toMatchObject({ runId: undoId, kind: 'undo', undoOf: night2 });

  // Only sync runs stand for the pipeline and set its last success.
  const [standing] = await recentRuns(h.redis, keys(), {
    pipeline: 'catalog',
    limit: 1,
    standing: true,
  });
  expect(standing!.id).toBe(night2);
  expect(await h.redis.hget(keys().metrics, lastSuccessField('catalog'))).toBe(lastSuccess);
  expect(await h.redis.hget(keys().metrics, runsField('catalog', 'succeeded', 'undo'))).toBe('1');
  expect(await h.redis.hget(keys().metrics, runsField('catalog', 'succeeded', 'sync'))).toBe('2');

  const page = runBody(report, 0, [], operator, Date.now()).text;
  expect(page).toMatch(new RegExp(`undo of run\\s+<a href="/runs/${night2}">${night2}</a>`));
  expect(page).not.toContain('rows read');
  expect(page).not.toContain('items.csv');
  expect(page).not.toContain('Every row of the source was read');
  expect(page).toContain('a run of this kind reads no source file');
});

it("shows a replay's runs and no source file on its page", async () => {
  const { runId } = await runCatalog(
    h,
    config,
    'night3.csv',
    PRODUCTS.map((no, i) => itemRow(no, `${30 + i},50`)),
  );
  const report = await buildRunReport(
    h.redis,
    keys(),
    createDeadLetterStore(h.redis, keys()),
    runId,
  );
  const replay = { ...report, kind: 'replay' as const, replayOf: ['catalog-a', 'catalog-b'] };
  delete replay.file;
  const page = runBody(replay, 0, [], operator, Date.now()).text;
  expect(page).toMatch(/replay of dead letters of\s+<a href="\/runs\/catalog-a">catalog-a<\/a>/);
  expect(page).toContain('<a href="/runs/catalog-b">catalog-b</a>');
  expect(page).not.toContain('rows read');
  expect(page).not.toContain("the pipeline's own source");
  expect(page).not.toContain('Every row of the source was read');
});

it('offers no cancel while cancelling, and says a stopped run sent nothing', async () => {
  const { runId } = await runCatalog(
    h,
    config,
    'night4.csv',
    PRODUCTS.map((no, i) => itemRow(no, `${40 + i},50`)),
  );
  const report = await buildRunReport(
    h.redis,
    keys(),
    createDeadLetterStore(h.redis, keys()),
    runId,
  );
  const running = runBody({ ...report, status: 'running' }, 0, [], operator, Date.now()).text;
  expect(running).toContain('Cancel this run');
  const cancelling = runBody({ ...report, status: 'cancelling' }, 0, [], operator, Date.now()).text;
  expect(cancelling).not.toContain('Cancel this run');

  const stopped = { ...report, status: 'guard_stopped' as const, version: 0, stages: [] };
  const page = runBody(stopped, 0, [], operator, Date.now()).text;
  expect(page).not.toContain('settled');
  expect(page).not.toContain('version 0');
  expect(page).toContain('none sent: the run stopped before delivery');
});
