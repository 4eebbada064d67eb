/**
 * The entity trace over real runs against the simulator (over TCP) on a real Redis: a delivered
 * product names the run that committed it; a refused price is planned but failed, with its dead
 * letter; a key with leading zeros is its own key; a product missing from the next export is
 * deleted by that run; a replay with an edited payload delivers the price; a run not taken yet
 * is pending. What runs planned per key lives as long as their records.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { createDeadLetterStore } from '../../src/runs/dead-letters/dead-letter-store.js';
import { EditedPayloads } from '../../src/queue/dlq/edited-payloads.js';
import { replayDeadLetters } from '../../src/orchestrate/replay.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { RETENTION_S } from '../../src/runs/finish-run.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  traceEntity,
  tracedPipeline,
  type EntityTrace,
} from '../../src/runs/trace/entity-trace.js';
import { traceText } from '../../src/runs/trace/entity-trace-text.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { writeConfigFile } from './cli-process.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const row = (no: string, price: string, name = `Item ${no}`): string =>
  `${no};${name};;Acme;GEN;Gensere;;10;${price};NOK;No;;;01.01.2026`;
/** Ten products: A100, a refused price for A200, a key with leading zeros, and seven more. */
const ROWS = [
  row('A100', '100,00'),
  row('A200', '-12,00'),
  row('00300', '30,00'),
  ...[4, 5, 6, 7, 8, 9, 10].map((n) => row(`A${n}00`, `${n},00`)),
];

const h = useDeliveryHarness('entity-trace', { seed: 7 });
const keys = () => deliveryKeys(h.prefix);
let config: FerryConfig;
let worker: DeliveryWorker | undefined;

function itemsFile(name: string, rows: readonly string[]): string {
  const file = join(h.dir, name);
  writeFileSync(file, [HEADER, ...rows, ''].join('\r\n'), 'latin1');
  return file;
}

async function run(file: string): Promise<string> {
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file },
  });
  await followRun(h.redis, keys(), runId, () => undefined);
  return runId;
}

async function trace(key: string): Promise<EntityTrace> {
  const ctx = { config, redis: h.redis, keys: keys(), dlq: createDeadLetterStore(h.redis, keys()) };
  return await traceEntity(ctx, tracedPipeline(config, 'catalog'), key);
}

/** `ferry <args>` in this process, with a config file of this test's. */
async function ferry(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (chunks: string[]) =>
    new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
  const env = { FERRY_CONFIG: writeConfigFile(h.dir, h.prefix, h.sim.url) };
  const code = await main(args, { stdout: sink(out), stderr: sink(err), env });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

beforeAll(async () => {
  config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
});

afterAll(async () => {
  await worker?.close();
});

let first = '';
let second = '';

it('names the run that delivered a product, and when, with its hash', async () => {
  const before = new Date().toISOString();
  first = await run(itemsFile('night-1.csv', ROWS));
  const t = await trace('A100');
  expect(t.state).toMatchObject({
    entity: 'product',
    resource: 'products',
    deleted: false,
    committed: { runId: first },
  });
  expect(t.state!.hash).not.toBe('');
  expect(t.state!.committed!.from >= before).toBe(true);
  expect(t.states.map((s) => s.resource)).toEqual(['products', 'prices']);
  expect(t.changes).toEqual([
    expect.objectContaining({
      runId: first,
      operationId: 'products.put',
      change: 'upsert',
      outcome: 'delivered',
    }),
    expect.objectContaining({
      runId: first,
      operationId: 'products.prices.patch',
      resource: 'prices',
      outcome: 'delivered',
    }),
  ]);
  expect(t.deadLetters).toEqual([]);
  expect(traceText(t)).toContain(`Delivered in run ${first}`);
  // What the run planned per key stays as long as its record.
  expect(await h.redis.ttl(keys().runChanges(first))).toBeGreaterThan(RETENTION_S - 60);
});

it('says a refused price was planned but failed, with its dead letter', async () => {
  const t = await trace('A200');
  expect(t.state?.resource).toBe('products');
  expect(t.states.map((s) => s.resource)).toEqual(['products']);
  expect(t.deadLetters).toHaveLength(1);
  const [letter] = t.deadLetters;
  expect(letter).toMatchObject({ runId: first, operationId: 'products.prices.patch', status: 422 });
  expect(t.changes.find((c) => c.operationId === 'products.prices.patch')).toMatchObject({
    outcome: 'dead_lettered',
    deadLetterId: letter!.id,
  });
  expect(traceText(t)).toContain(`Planned but failed: dead letter ${letter!.id}`);
});

it('takes keys as written: leading zeros are part of the key', async () => {
  expect((await trace('00300')).state?.committed?.runId).toBe(first);
  const unknown = await trace('300');
  expect(unknown).toMatchObject({ key: '300', states: [], changes: [], deadLetters: [] });
  expect(unknown.state).toBeUndefined();
  expect(traceText(unknown)).toContain('Never seen by Ferry');
});

it('`ferry trace` prints the same document, or the answer in words; exit 1 while a dead letter waits', async () => {
  const json = await ferry(['trace', 'catalog', 'A200', '--json']);
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(await trace('A200'))));
  const words = await ferry(['trace', 'catalog', '00300']);
  expect(words.code).toBe(0);
  expect(words.stdout).toContain(`Delivered in run ${first}`);
  expect(words.stdout).toContain('product (products): hash');
  const unknown = await ferry(['trace', 'nightly-nope', 'A100', '--json']);
  expect(unknown.code).toBe(2);
  expect(JSON.parse(unknown.stdout)).toMatchObject({ error: { code: 'FERRY_NOT_FOUND' } });
  expect((await ferry(['trace', 'catalog'])).code).toBe(2);
});

it('says which run deleted a product missing from the export', async () => {
  second = await run(itemsFile('night-2.csv', ROWS.slice(1)));
  const t = await trace('A100');
  expect(t.state).toMatchObject({ deleted: true, hash: '', committed: { runId: second } });
  expect(t.changes.map((c) => [c.runId, c.operationId, c.change, c.outcome])).toEqual([
    [second, 'products.delete', 'delete', 'delivered'],
    [first, 'products.put', 'upsert', 'superseded'],
    [first, 'products.prices.patch', 'upsert', 'delivered'],
  ]);
  expect(traceText(t)).toContain(`Deleted in run ${second}`);
});

it('names the replay that delivered an edited payload', async () => {
  const [letter] = (await trace('A200')).deadLetters;
  const report = await replayDeadLetters({
    config,
    logger: quietLogger(),
    selection: { ids: [letter!.id] },
    payloads: new EditedPayloads([
      { key: 'A200', payload: { prices: [{ amount: '12.00', currency: 'NOK' }] } },
    ]),
    dryRun: false,
    localWorker: false,
  });
  expect(report.delivered).toBe(1);
  const replayId = report.runs[0]!.runId;
  const t = await trace('A200');
  expect(t.deadLetters).toEqual([]);
  expect(t.states.find((s) => s.resource === 'prices')?.committed?.runId).toBe(replayId);
  expect(t.changes[0]).toMatchObject({ kind: 'replay', trigger: 'replay', resource: 'prices' });
  // The second night sent the price again, refused again (its dead letter took the first's place):
  // the replay delivered the second night's version, which supersedes the first night's.
  expect(t.changes.map((c) => [c.runId, c.operationId, c.outcome])).toEqual([
    [replayId, 'products.prices.patch', 'delivered'],
    [second, 'products.prices.patch', 'replayed'],
    [first, 'products.put', 'delivered'],
    [first, 'products.prices.patch', 'superseded'],
  ]);
});

it('shows a change no worker has taken yet as pending', async () => {
  await worker?.close();
  worker = undefined;
  const renamed = ROWS.slice(1).map((r) =>
    r.startsWith('00300;') ? row('00300', '30,00', 'New') : r,
  );
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file: itemsFile('night-3.csv', renamed) },
  });
  const t = await trace('00300');
  expect(t.changes[0]).toMatchObject({ runId, operationId: 'products.put', outcome: 'pending' });
  expect(traceText(t)).toContain(`Run ${runId} is still going: its products.put upsert`);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await followRun(h.redis, keys(), runId, () => undefined);
  expect((await trace('00300')).state?.committed?.runId).toBe(runId);
});
