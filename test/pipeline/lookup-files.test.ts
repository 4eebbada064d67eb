/**
 * Lookups from files (docs/PIPELINES.md): a products file joined with its text table, on real files
 * and the state in a real Redis. Each error stops the plan before anything is planned, naming what
 * to fix; a changed text table plans exactly the entities whose looked-up values changed.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { PipelineDefinition } from '../../src/pipeline/definition/definition-types.js';
import { LookupFileError } from '../../src/pipeline/errors.js';
import { planPipeline } from '../../src/pipeline/plan-pipeline.js';
import type { Plan } from '../../src/pipeline/types.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { runFerryHere as runFerry } from '../queue/cli-process.js';
import { definitionOf, planItems, testConfig } from './helpers.js';
import { useSnapshotHarness } from './snapshot-harness.js';

const h = useSnapshotHarness('lookups');

const PRODUCTS = 'PRODUCTID,PRICE\nP-1,10.00\nP-2,20.00\nP-3,30.00\n';
const texts = (names: Record<string, [string, string]>): string =>
  'PRODUCTID,LANGUAGE,SHORT_DESCR\n' +
  Object.entries(names)
    .flatMap(([id, [en, de]]) => [`${id},EN,${en}`, `${id},DE,${de}`])
    .join('\n') +
  '\n';
const NAMES: Record<string, [string, string]> = {
  'P-1': ['Notebook', 'Klapprechner'],
  'P-2': ['Printer', 'Drucker'],
  'P-3': ['Monitor', 'Bildschirm'],
};

const withoutP2 = (): Record<string, [string, string]> =>
  Object.fromEntries(Object.entries(NAMES).filter(([id]) => id !== 'P-2'));

/** Products named from the text table: the EN text as name, the DE one as description. */
function pipeline(textFile: string, nameLookup: Record<string, unknown> = {}): PipelineDefinition {
  const lookup = (language: string) => ({
    file: textFile,
    key: 'PRODUCTID',
    value: 'SHORT_DESCR',
    where: { LANGUAGE: language },
  });
  return definitionOf('products', {
    source: { file: 'unused.csv' },
    mode: 'snapshot',
    lookups: { names: { ...lookup('EN'), ...nameLookup }, germanNames: lookup('DE') },
    entities: [
      {
        name: 'product',
        operations: { upsert: 'products.put' },
        key: 'PRODUCTID',
        fields: {
          name: { column: 'PRODUCTID', lookup: 'names', required: true },
          description: { column: 'PRODUCTID', lookup: 'germanNames' },
          vendor: { template: 'ACME' },
          handle: { template: '{PRODUCTID}', slug: true },
          active: { template: 'true', type: 'boolean' },
          categoryExternalIds: { array: [] },
        },
      },
    ],
  });
}

function plan(definition: PipelineDefinition, lookupFiles?: Record<string, string>): Promise<Plan> {
  return planPipeline({
    definition,
    sourceOverride: { file: h.file('Products.csv', PRODUCTS) },
    ...(lookupFiles ? { lookupFiles } : {}),
    redis: h.redis(),
    prefix: h.prefix(),
    config: testConfig,
    version: Date.now(),
  });
}

const payloads = (p: Plan) =>
  planItems(p).map((i) => [i.key, (i as { payload: Record<string, unknown> }).payload]);

describe('lookups from files', () => {
  it('join a products file with its text table in two languages, the text file read once', async () => {
    // A FIFO can be read once only: a second open of it would wait for a writer for ever.
    const fifo = join(h.file('marker', ''), '..', 'texts-fifo.csv');
    execFileSync('mkfifo', [fifo]);
    const planned = plan(pipeline(fifo));
    await writeFile(fifo, texts(NAMES));
    const result = await Promise.race([planned, sleep(10_000).then(() => 'read twice?')]);
    expect(result).not.toBe('read twice?');
    const p = result as Plan;
    expect(p.errors).toEqual([]);
    expect(payloads(p)).toEqual([
      ['P-1', expect.objectContaining({ name: 'Notebook', description: 'Klapprechner' })],
      ['P-2', expect.objectContaining({ name: 'Printer', description: 'Drucker' })],
      ['P-3', expect.objectContaining({ name: 'Monitor', description: 'Bildschirm' })],
    ]);
  });

  it('stop before planning when a lookup file is missing (exit code 2)', async () => {
    const error = await plan(pipeline(join(h.file('x', ''), '..', 'missing.csv'))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LookupFileError);
    expect(error).toMatchObject({ code: 'FERRY_LOOKUP', exitCode: 2 });
    expect((error as Error).message).toMatch(
      /Lookup "names", "germanNames" \(lookups\.names\.file in products\.yaml\) cannot be read: .*missing\.csv: no such file\. Nothing was sent\./,
    );
  });

  it('refuse a key that repeats after `where`, naming both lines', async () => {
    const file = h.file('dup.csv', `${texts(NAMES)}P-2,EN,Second printer\n`);
    const error = await plan(pipeline(file)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FERRY_LOOKUP', exitCode: 1 });
    expect((error as Error).message).toContain(
      'the key "P-2" (column PRODUCTID) is on line 4 and line 8 of',
    );
    expect((error as Error).message).toContain('among the records where LANGUAGE = EN');
  });

  it('reject a record whose value is not in the table, naming the lookup and its file', async () => {
    const rest = withoutP2();
    const file = h.file('partial.csv', texts(rest));
    const p = await plan(pipeline(file));
    expect(payloads(p).map(([key]) => key)).toEqual(['P-1', 'P-3']);
    expect(p.errors).toEqual([
      {
        file: expect.stringMatching(/Products\.csv$/),
        line: 3,
        field: 'PRODUCTID',
        message: expect.stringMatching(/"P-2" is not in lookup names \(.*partial\.csv\)/),
        key: 'P-2',
      },
    ]);
  });

  it('keep the value with lookupMissing: keep', async () => {
    const rest = withoutP2();
    const file = h.file('partial-keep.csv', texts(rest));
    const definition = definitionOf('products', {
      source: { file: 'unused.csv' },
      mode: 'snapshot',
      lookups: {
        names: { file, key: 'PRODUCTID', value: 'SHORT_DESCR', where: { LANGUAGE: 'DE' } },
      },
      entities: [
        {
          name: 'category',
          operations: { upsert: 'categories.put' },
          key: 'PRODUCTID',
          fields: {
            name: { column: 'PRODUCTID', lookup: 'names', lookupMissing: 'keep' },
            sortIndex: { template: '0', type: 'integer' },
          },
        },
      ],
    });
    const p = await plan(definition);
    expect(p.errors).toEqual([]);
    expect(payloads(p).map(([, payload]) => (payload as { name: string }).name)).toEqual([
      'Klapprechner',
      'P-2',
      'Bildschirm',
    ]);
  });

  it('stop when the lookup file has records that cannot be read, listing them', async () => {
    const file = h.file('broken.csv', `${texts(NAMES)}P-9,EN\n`);
    const error = await plan(pipeline(file)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'FERRY_LOOKUP', exitCode: 1 });
    expect((error as Error).message).toMatch(
      /1 record of .*broken\.csv could not be read, so the table would be incomplete\. Nothing was sent\. First:\n .*broken\.csv:8 /,
    );
  });

  it('read another file for one run with lookupFiles, and refuse a name that is no file lookup', async () => {
    const file = h.file('texts.csv', texts(NAMES));
    const other = h.file('other.csv', texts({ ...NAMES, 'P-1': ['Laptop', 'Laptop'] }));
    const p = await plan(pipeline(file), { names: other });
    expect(payloads(p)[0]).toEqual(['P-1', expect.objectContaining({ name: 'Laptop' })]);
    await expect(plan(pipeline(file), { nope: other })).rejects.toMatchObject({
      code: 'FERRY_USAGE',
      message: expect.stringMatching(
        /no lookup "nope" read from a file \(its file lookups: names, germanNames\)/,
      ),
    });
  });

  it('plan exactly the entities whose names changed when only the text table changed', async () => {
    const file = h.file('texts-v1.csv', texts(NAMES));
    const first = await plan(pipeline(file));
    expect(planItems(first)).toHaveLength(3);
    await h.commitAll(first);
    expect(planItems(await plan(pipeline(file)))).toHaveLength(0);

    const renamed = h.file(
      'texts-v2.csv',
      texts({
        ...NAMES,
        'P-1': ['Notebook Pro', 'Klapprechner'],
        'P-3': ['Monitor', 'Flachbildschirm'],
      }),
    );
    const second = await plan(pipeline(renamed));
    expect(payloads(second)).toEqual([
      ['P-1', expect.objectContaining({ name: 'Notebook Pro' })],
      ['P-3', expect.objectContaining({ description: 'Flachbildschirm' })],
    ]);
  });
});

describe('ferry plan with lookups from files', () => {
  const config = h.file('ferry.yaml', 'log: { level: error }\n');
  const env = () => ({ REDIS_URL: TEST_REDIS_URL, FERRY_PREFIX: h.prefix() });

  it('plans the shipped ERP example with its text tables', async () => {
    const run = await runFerry(['plan', 'erp-products', '--show-items'], config, env());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"name":"Notebook Basic 15"');
    expect(run.stdout).toContain('"name":"Printers"');
  });

  it('exits 2 for a missing --lookup file and for a bad --lookup argument', async () => {
    const missing = await runFerry(
      ['plan', 'erp-products', '--lookup', 'productNames=/nonexistent/texts.csv'],
      config,
      env(),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/nonexistent/texts.csv: no such file');
    const bad = await runFerry(['plan', 'erp-products', '--lookup', 'productNames'], config, env());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--lookup takes NAME=PATH');
  });
});
