/**
 * The dead-letter workflow end to end, through the CLI: an item the platform refuses (a negative
 * price) is dead-lettered with its file and line, listed, shown, exported, fixed through a replay
 * with an edited payload and delivered; a replay older than what was applied since is skipped as
 * stale; the mass-delete guard stops a truncated snapshot before any request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../src/runs/dead-letters/dead-letter.js';
import type { DeadLetterRow } from '../../src/runs/dead-letters/dead-letter-views.js';
import type { ReplayReport } from '../../src/orchestrate/replay.js';
import type { RunReport } from '../../src/runs/run-report.js';
import type { DeliveryStatus } from '../../src/queue/status.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { runFerryHere as runFerry, writeConfigFile } from './cli-process.js';
import { tempDir, expectNothingOpen } from './delivery-fixtures.js';

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';

function row(no: string, name: string, price: string): string {
  return `${no};${name};;Acme;GEN;Gensere;;10;${price};NOK;No;000${no.slice(1)};;01.01.2026`;
}

const prefix = uniquePrefix('dlq');
const dir = tempDir('dlq');
let sim: RunningSimulator;
let configFile: string;

function itemsFile(name: string, rows: string[]): string {
  const file = join(dir.path, name);
  writeFileSync(file, [HEADER, ...rows, ''].join('\r\n'), 'latin1');
  return file;
}

async function ferryJson<T>(args: string[], expectedCode: number): Promise<T> {
  const result = await runFerry([...args, '--json'], configFile);
  expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(expectedCode);
  return JSON.parse(result.stdout) as T;
}

function priceOf(key: string): string | undefined {
  const entry = sim.state('prices').find((p) => JSON.stringify(p).includes(`"${key}"`));
  return (entry as { prices?: { amount: string }[] } | undefined)?.prices?.[0]?.amount;
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 3 });
  configFile = writeConfigFile(dir.path, prefix, sim.url);
});

afterAll(async () => {
  await sim.close();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('dead letters', () => {
  let deadLetterId = '';
  const first = () =>
    itemsFile('items-1.csv', [
      row('A100', 'Good one', '100,00'),
      row('A200', 'Bad price', '-12,00'),
      row('A300', 'Another', '50,00'),
    ]);

  it('a refused item is dead-lettered with its file and line; the run exits 1', async () => {
    const file = first();
    const report = await ferryJson<RunReport & { files: { csv: string } }>(
      ['run', 'catalog', '--file', file, '--wait'],
      1,
    );
    expect(report.status).toBe('partial');
    expect(report.deadLettered).toBe(1);
    expect(report.operations['products.prices.patch']).toMatchObject({
      planned: 3,
      delivered: 2,
      failed: 1,
    });
    expect(report.operations['products.put']).toMatchObject({
      planned: 3,
      delivered: 3,
      failed: 0,
    });
    expect(priceOf('A100')).toBe('100.00');
    expect(priceOf('A200')).toBeUndefined();
    const csv = readFileSync(report.files.csv, 'utf8');
    expect(csv).toContain('dead-letter');
    expect(csv).toContain(`${file},3,products.prices.patch,A200`);
  });

  it('is listed and shown, without credentials', async () => {
    const list = await ferryJson<DeadLetterRow[]>(
      ['dlq', 'list', '--operation', 'products.prices.patch'],
      0,
    );
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      keys: ['A200'],
      status: 422,
      errorCode: 'FERRY_HTTP_PERMANENT',
    });
    expect(list[0]?.source[0]).toMatch(/items-1\.csv:3$/);
    deadLetterId = list[0]?.id ?? '';
    expect(await ferryJson<DeadLetterRow[]>(['dlq', 'list', '--key', 'A100'], 0)).toEqual([]);

    const entry = await ferryJson<DeadLetter>(['dlq', 'show', deadLetterId], 0);
    expect(entry.items[0]).toMatchObject({ key: 'A200', source: { line: 3 } });
    expect(entry.request).toMatchObject({
      method: 'PATCH',
      path: '/external/api/products/A200/prices',
    });
    expect(entry.request.body).toEqual({ prices: [{ amount: '-12.00', currency: 'NOK' }] });
    expect(JSON.stringify(entry).toLowerCase()).not.toContain('dev-token');
    expect(Object.keys(entry.request.headers).map((h: string) => h.toLowerCase())).not.toContain(
      'authorization',
    );
    expect(entry.bodyExcerpt).toBeTruthy();

    const missing = await runFerry(['dlq', 'show', 'd-nope'], configFile);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ferry dlq list');
  });

  it('exports to CSV for the people who fix the data', async () => {
    const out = join(dir.path, 'dlq.csv');
    const result = await ferryJson<{ rows: number }>(['dlq', 'export', '--csv', out], 0);
    expect(result.rows).toBe(1);
    const lines = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(lines[0]).toMatch(/^deadLetterId,at,runId,pipeline,operation,key,file,line/);
    expect(lines[1]).toContain(`${deadLetterId},`);
    expect(lines[1]).toContain(',A200,');
    expect(lines[1]).toContain('-12.00');
  });

  it('a replay with an edited payload delivers it', async () => {
    const edits = join(dir.path, 'edits.ndjson');
    writeFileSync(
      edits,
      `${JSON.stringify({ key: 'A200', payload: { prices: [{ amount: '12.00', currency: 'NOK' }] } })}\n`,
    );
    const dry = await ferryJson<ReplayReport>(
      ['dlq', 'replay', deadLetterId, '--payloads', edits, '--dry-run'],
      0,
    );
    expect(dry.entries[0]).toMatchObject({ id: deadLetterId, edited: true, outcome: 'would send' });
    expect(priceOf('A200')).toBeUndefined();

    const replay = await ferryJson<ReplayReport>(
      ['dlq', 'replay', deadLetterId, '--payloads', edits],
      0,
    );
    expect(replay.entries[0]).toMatchObject({ id: deadLetterId, outcome: 'delivered' });
    expect(priceOf('A200')).toBe('12.00');
    expect(await ferryJson<DeadLetterRow[]>(['dlq', 'list'], 0)).toEqual([]);

    // The source row was delivered (fixed): running the same file again sends nothing.
    const before = sim.stats().requests;
    await ferryJson<RunReport & { files: { csv: string } }>(
      ['run', 'catalog', '--file', first(), '--wait'],
      0,
    );
    expect(sim.stats().requests).toBe(before);
  });

  it('a replay older than what was applied since is skipped as stale', async () => {
    const bad = itemsFile('items-2.csv', [
      row('A100', 'Good one', '100,00'),
      row('A200', 'Bad price', '-13,00'),
      row('A300', 'Another', '50,00'),
    ]);
    await ferryJson<RunReport & { files: { csv: string } }>(
      ['run', 'catalog', '--file', bad, '--wait'],
      1,
    );
    const [old] = await ferryJson<DeadLetterRow[]>(['dlq', 'list', '--key', 'A200'], 0);
    const good = itemsFile('items-3.csv', [
      row('A100', 'Good one', '100,00'),
      row('A200', 'Bad price', '13,00'),
      row('A300', 'Another', '50,00'),
    ]);
    await ferryJson<RunReport & { files: { csv: string } }>(
      ['run', 'catalog', '--file', good, '--wait'],
      0,
    );
    expect(priceOf('A200')).toBe('13.00');

    const edits = join(dir.path, 'edits.json');
    writeFileSync(
      edits,
      JSON.stringify({ A200: { prices: [{ amount: '99.00', currency: 'NOK' }] } }),
    );
    const before = sim.stats().requests;
    const oldId = old?.id ?? '';
    const replay = await ferryJson<ReplayReport>(['dlq', 'replay', oldId, '--payloads', edits], 0);
    expect(replay.entries[0]).toMatchObject({ id: oldId, outcome: 'stale' });
    expect(replay.stale).toBe(1);
    expect(sim.stats().requests).toBe(before);
    expect(priceOf('A200')).toBe('13.00');
    expect(await ferryJson<DeadLetterRow[]>(['dlq', 'list'], 0)).toEqual([]);
  });

  it('the mass-delete guard stops a truncated snapshot before any request', async () => {
    const truncated = itemsFile('items-4.csv', [row('A100', 'Good one', '100,00')]);
    const before = sim.stats().requests;
    const result = await runFerry(
      ['run', 'catalog', '--file', truncated, '--wait', '--json'],
      configFile,
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error.code).toBe('FERRY_MASS_DELETE_GUARD');
    expect(result.stderr).toContain('--allow-deletes');
    expect(sim.stats().requests).toBe(before);
    expect(sim.state('products')).toHaveLength(3);
    const status = await ferryJson<DeliveryStatus>(['status'], 0);
    expect(status.activeRuns).toEqual([]);

    // Allowed explicitly for one run, the deletes go out.
    await ferryJson<RunReport & { files: { csv: string } }>(
      ['run', 'catalog', '--file', truncated, '--wait', '--allow-deletes', '2'],
      0,
    );
    expect(sim.state('products')).toHaveLength(1);
  });

  it('purges dead letters', async () => {
    const bad = itemsFile('items-5.csv', [row('A100', 'Good one', '-1,00')]);
    const report = await ferryJson<RunReport & { files: { csv: string } }>(
      ['run', 'catalog', '--file', bad, '--wait'],
      1,
    );
    const dry = await ferryJson<{ dryRun: boolean; purged: number }>(
      ['dlq', 'purge', '--run', report.runId, '--dry-run'],
      0,
    );
    expect(dry).toMatchObject({ dryRun: true, purged: 1 });
    expect(await ferryJson<DeadLetterRow[]>(['dlq', 'list'], 0)).toHaveLength(1);
    expect(
      await ferryJson<{ dryRun: boolean; purged: number }>(
        ['dlq', 'purge', '--run', report.runId],
        0,
      ),
    ).toMatchObject({
      purged: 1,
    });
    expect(await ferryJson<DeadLetterRow[]>(['dlq', 'list'], 0)).toEqual([]);
    const usage = await runFerry(['dlq', 'purge'], configFile);
    expect(usage.code).toBe(2);
  });
});
