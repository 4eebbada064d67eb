/**
 * A run the mass-delete guard stops is recorded as a run of its own, status guard_stopped, with
 * the deletes it wanted (counts per operation, a sample of at most 20 keys): its document, the
 * run list and `ferry run --json` show them; a schedule's tick stopped by the guard is recorded
 * once, not again as a skipped run. Nothing is sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { FerryConfig } from '../../src/config/schema.js';
import type { MassDeleteGuardError } from '../../src/pipeline/errors.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { runsField } from '../../src/runs/metrics/metric-fields.js';
import { followRun } from '../../src/runs/follow-run.js';
import { recentRuns } from '../../src/runs/run-index.js';
import { lineOf } from '../../src/runs/run-line.js';
import { buildRunReport } from '../../src/runs/run-report.js';
import { reportText } from '../../src/runs/report-text.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { startOrSkip } from '../../src/schedules/tick-run.js';
import { writeConfigFile } from './cli-process.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const row = (no: string): string =>
  `${no};Item ${no};;Acme;GEN;Gensere;;10;10,00;NOK;No;;;01.01.2026`;
/** 30 products; tonight's export has only the first two. */
const ALL = Array.from({ length: 30 }, (_, i) => `P${String(i + 1).padStart(3, '0')}`);

const h = useDeliveryHarness('guard-stopped', { seed: 9 });
const keys = () => deliveryKeys(h.prefix);
let config: FerryConfig;
let worker: DeliveryWorker;
let truncated: string;

function itemsFile(name: string, products: readonly string[]): string {
  const file = join(h.dir, name);
  writeFileSync(file, [HEADER, ...products.map(row), ''].join('\r\n'), 'latin1');
  return file;
}

beforeAll(async () => {
  config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file: itemsFile('full.csv', ALL) },
  });
  await followRun(h.redis, keys(), runId, () => undefined);
  truncated = itemsFile('truncated.csv', ALL.slice(0, 2));
});

afterAll(async () => {
  await worker.close();
});

it('records the stopped run with the deletes it wanted, and sends nothing', async () => {
  const before = h.sim.stats().requests;
  const error = (await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file: truncated },
    sourceName: 'truncated.csv',
  }).catch((e: unknown) => e)) as MassDeleteGuardError;
  expect(error.code).toBe('FERRY_MASS_DELETE_GUARD');
  const runId = error.details.runId as string;
  expect(error.message).toContain(`recorded as run ${runId}`);
  expect(h.sim.stats().requests).toBe(before);

  const report = await buildRunReport(
    h.redis,
    keys(),
    createDeadLetterStore(h.redis, keys()),
    runId,
  );
  expect(report).toMatchObject({
    runId,
    pipeline: 'catalog',
    status: 'guard_stopped',
    trigger: 'cli',
    file: 'truncated.csv',
    rows: 2,
    operations: {},
    wantedDeletes: {
      deletes: 28,
      inState: 30,
      maxShare: 0.1,
      rows: 2,
      operations: { 'products.delete': 28 },
    },
  });
  expect(report.reason).toContain('--allow-deletes 28');
  expect(report.finishedAt).toBeDefined();
  const sample = report.wantedDeletes!.sample;
  expect(sample).toHaveLength(20);
  expect(sample.every((s) => s.operationId === 'products.delete')).toBe(true);
  expect(new Set(sample.map((s) => s.key)).size).toBe(20);
  expect(sample.every((s) => ALL.slice(2).includes(s.key))).toBe(true);
  expect(reportText(report)).toContain('it would delete 28 of the 30 entities in state');

  const [latest] = await recentRuns(h.redis, keys(), { pipeline: 'catalog', limit: 1 });
  expect(lineOf(latest!, Date.now())).toMatchObject({ runId, status: 'guard_stopped' });
  expect(await h.redis.ttl(keys().run(runId))).toBeGreaterThan(0);
  expect(await h.redis.hget(keys().metrics, runsField('catalog', 'guard_stopped', 'sync'))).toBe(
    '1',
  );
  expect(await h.redis.exists(keys().activeRun('catalog'))).toBe(0);
});

it('`ferry run --json` names the recorded run and the deletes it wanted', async () => {
  const out: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      out.push(String(chunk));
      done();
    },
  });
  const env = { FERRY_CONFIG: writeConfigFile(h.dir, h.prefix, h.sim.url) };
  const code = await main(['run', 'catalog', '--file', truncated, '--json'], {
    stdout: sink,
    stderr: new Writable({ write: (_c, _e, done) => done() }),
    env,
  });
  expect(code).toBe(1);
  const { error } = JSON.parse(out.join('')) as {
    error: { code: string; runId: string; operations: unknown; sample: unknown[] };
  };
  expect(error).toMatchObject({
    code: 'FERRY_MASS_DELETE_GUARD',
    deletes: 28,
    operations: { 'products.delete': 28 },
  });
  expect(error.sample).toHaveLength(20);
  const report = await buildRunReport(
    h.redis,
    keys(),
    createDeadLetterStore(h.redis, keys()),
    error.runId,
  );
  expect(report.status).toBe('guard_stopped');
});

it("records a schedule's tick stopped by the guard once, as guard_stopped", async () => {
  const before = await recentRuns(h.redis, keys(), { pipeline: 'catalog', limit: 100 });
  const outcome = await startOrSkip(
    {
      config,
      redis: h.redis,
      keys: keys(),
      pipeline: 'catalog',
      timing: { scheduledAt: Date.now() },
      logger: quietLogger(),
      signal: new AbortController().signal,
    },
    truncated,
  );
  expect('refused' in outcome && outcome.refused.code).toBe('FERRY_MASS_DELETE_GUARD');
  const after = await recentRuns(h.redis, keys(), { pipeline: 'catalog', limit: 100 });
  expect(after).toHaveLength(before.length + 1);
  expect(after[0]).toMatchObject({
    status: 'guard_stopped',
    trigger: 'schedule',
    wantedDeletes: { deletes: 28 },
  });
});
