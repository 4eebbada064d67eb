/**
 * Export pipeline files: the shipped ones load under the listings that have their operation, a
 * bad one is refused at load with each problem at its dotted path, and import pipelines load as
 * they did (`direction: import` allowed, an export file refused by the import loader and the
 * other way round, naming the command that runs it).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError } from '../../src/errors/index.js';
import { OperationNotInListingError } from '../../src/interface/operation-errors.js';
import {
  loadAnyPipeline,
  loadExportPipeline,
  loadPipeline,
} from '../../src/pipeline/definition/load-pipeline.js';
import { configWith, testConfig } from '../pipeline/helpers.js';
import { tempDir } from '../queue/delivery-fixtures.js';

const dir = tempDir('export-definition');
afterAll(() => dir.remove());
const config = configWith({ pipelines: { dir: dir.path } });

function write(name: string, file: unknown): void {
  writeFileSync(join(dir.path, `${name}.yaml`), stringify(file));
}

const GOOD = {
  direction: 'export',
  read: { operation: 'statistics.revenue.get', cursor: { field: 'date' } },
  fields: {
    day: { column: 'date', type: 'date' },
    revenue: { column: 'revenue', type: 'decimal' },
  },
  target: { folder: 'out', file: 'revenue-{date}.json', format: 'json' },
};

function issuesOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('export pipeline files', () => {
  it('loads the shipped exports under listing A and B', () => {
    for (const listing of ['A', 'B']) {
      const orders = loadExportPipeline('orders-export', configWith({ interface: { listing } }));
      expect(orders.read).toMatchObject({ operation: 'orders.get', cursor: { field: 'id' } });
      expect(orders.explode).toBe('lines');
      expect(orders.fields.map((f) => f.name)).toContain('orderId');
      expect(orders.target).toMatchObject({ format: 'csv', decimalSeparator: ',' });
      expect(loadAnyPipeline('zreports-export', testConfig).direction).toBe('export');
    }
  });

  it('keeps import pipelines as they were, and says which command runs which file', () => {
    expect(loadAnyPipeline('catalog', testConfig).direction).toBe('import');
    write('imports', {
      direction: 'import',
      source: { file: 'x.csv' },
      mode: 'snapshot',
      entities: [{ operations: { upsert: 'stores.put' }, key: 'No', fields: { name: 'Name' } }],
    });
    expect(loadPipeline('imports', config).entities).toHaveLength(1);
    expect(issuesOf(() => loadPipeline('orders-export', testConfig))).toEqual([
      { path: 'direction', message: expect.stringContaining('`ferry export orders-export`') },
    ]);
    expect(issuesOf(() => loadExportPipeline('catalog', testConfig))).toEqual([
      { path: 'direction', message: expect.stringContaining('`ferry run catalog`') },
    ]);
  });

  it('refuses a bad export file at load, each problem at its path', () => {
    write('bad', {
      ...GOOD,
      read: { ...GOOD.read, pageSize: 0 },
      fields: {
        day: { column: 'date', type: 'date', format: 'dd.qq.yyyy' },
        amount: { column: 'revenue', scale: 2 },
        both: { column: 'a', value: 'b' },
        odd: { column: 'a', transform: 'noSuchTransform' },
      },
      target: {
        ...GOOD.target,
        format: 'csv',
        file: 'sub/revenue-{day}.csv',
        decimalSeparator: ',',
        csv: { delimiter: ',', colour: 'red' },
        timeZone: 'Mars/Olympus',
      },
    });
    const paths = issuesOf(() => loadExportPipeline('bad', config)).map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'read.pageSize',
        'fields.amount.scale',
        'fields.both',
        'target.file',
        'target.csv.colour',
      ]),
    );
    write('bad2', {
      ...GOOD,
      fields: {
        day: { column: 'date', type: 'date', format: 'dd.qq.yyyy' },
        odd: { column: 'a', transform: 'noSuchTransform' },
      },
      target: {
        ...GOOD.target,
        format: 'csv',
        file: 'revenue-{day}.csv',
        decimalSeparator: ',',
        timeZone: 'Mars/Olympus',
      },
    });
    const issues = issuesOf(() => loadExportPipeline('bad2', config));
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        'fields.day.format',
        'fields.odd.transform',
        'target.timeZone',
        'target.file',
        'target.decimalSeparator',
      ]),
    );
    expect(issues.find((i) => i.path === 'target.file')?.message).toMatch(/\{day\}.*date, time/);
  });

  it('fails by name on an operation the listing lacks (exit 2)', () => {
    write('revenue', GOOD);
    expect(loadExportPipeline('revenue', config).read.operation).toBe('statistics.revenue.get');
    const b = configWith({ pipelines: { dir: dir.path }, interface: { listing: 'B' } });
    expect(() => loadExportPipeline('revenue', b)).toThrow(OperationNotInListingError);
  });
});
