/**
 * The closing lines of a run's report for people: how long it took, in words that do not round
 * a quick run to nothing, and the failures file named only when it lists something.
 */
import { describe, expect, it } from 'vitest';
import { durationText } from '../../src/base/duration-text.js';
import { reportText } from '../../src/runs/report-text.js';
import type { RunReport } from '../../src/runs/run-report.js';

function finished(over: Partial<RunReport>): RunReport {
  return {
    runId: 'stores-20261126T030745-afb7',
    pipeline: 'stores',
    kind: 'sync',
    trigger: 'cli',
    status: 'succeeded',
    version: 1,
    rows: 8,
    startedAt: new Date(0).toISOString(),
    operations: {},
    items: {
      planned: 8,
      settled: 8,
      delivered: 8,
      failed: 0,
      stale: 0,
      cancelled: 0,
      unchanged: 0,
    },
    errors: [],
    rejected: 0,
    deadLettered: 0,
    deadLetters: [],
    stages: [],
    files: { json: 'reports/stores.json', csv: 'reports/stores-failures.csv' },
    ...over,
  };
}

describe('durationText', () => {
  it('says milliseconds, seconds, minutes and hours as a person would read them', () => {
    expect(durationText(0.038)).toBe('38 ms');
    expect(durationText(0.0001)).toBe('1 ms');
    expect(durationText(1.64)).toBe('1.6 s');
    expect(durationText(252.4)).toBe('4 min 12 s');
    expect(durationText(7512.4)).toBe('2 h 5 min');
  });
});

describe('a run report', () => {
  it('does not round a quick run to "0.0 s"', () => {
    const text = reportText(finished({ seconds: 0.04 }));
    expect(text).toContain('\n  took 40 ms\n');
    expect(text).not.toContain('0.0 s');
  });

  it('says how long the reading and planning took before delivery', () => {
    const text = reportText(finished({ seconds: 78.1, planSeconds: 2.14 }));
    expect(text).toContain(
      '\n  took 1 min 20 s: 2.1 s reading and planning, 1 min 18 s delivering\n',
    );
  });

  it('does not call the time of a run cancelled before it sent anything "delivering"', () => {
    const operations = {
      'products.upsert': {
        planned: 5,
        delivered: 0,
        failed: 0,
        stale: 0,
        skipped: 0,
        cancelled: 5,
      },
    };
    const cancelled = finished({ status: 'cancelled', seconds: 42, planSeconds: 1.5, operations });
    expect(reportText(cancelled)).toContain(
      '\n  took 43.5 s: 1.5 s reading and planning, 42.0 s until the cancel, nothing sent\n',
    );
    const sentSome = {
      'products.upsert': { ...operations['products.upsert'], delivered: 2, cancelled: 3 },
    };
    expect(reportText(finished({ ...cancelled, operations: sentSome }))).toContain(
      '1.5 s reading and planning, 42.0 s delivering\n',
    );
  });

  it('names the failures file only when some records were rejected or dead-lettered', () => {
    expect(reportText(finished({}))).not.toContain('failures:');
    expect(reportText(finished({}))).toContain('  report: reports/stores.json');
    const rejected = finished({
      status: 'partial',
      rejected: 1,
      errors: [
        {
          file: 'stores.csv',
          line: 2,
          field: 'E-Mail',
          message: 'E-Mail: expected an e-mail address',
        },
      ],
    });
    expect(reportText(rejected)).toContain('  failures: reports/stores-failures.csv');
    expect(reportText(finished({ status: 'partial', deadLettered: 2 }))).toContain('  failures:');
  });

  it("names a batch's dead letter by its first keys and rows, and how many more", () => {
    const keys = Array.from({ length: 56 }, (_, i) => String(10000 + i));
    const text = reportText(
      finished({
        status: 'partial',
        deadLettered: 58,
        deadLetters: [
          {
            id: 'd3e5215ba37c61e8',
            operationId: 'products.put',
            keys,
            source: keys.map((_, i) => ({ file: 'examples/items.csv', line: i + 2 })),
            errorCode: 'FERRY_NETWORK',
            message:
              'products.put (PUT /external/api/products): connection to http://127.0.0.1:4802 failed (ECONNREFUSED)',
          },
          {
            id: 'd0793962f092247a',
            operationId: 'categories.put',
            keys: ['SKI', 'JAK'],
            source: [
              { file: 'a.csv', line: 2 },
              { file: 'b.csv', line: 7 },
            ],
            errorCode: 'FERRY_NETWORK',
            message: 'refused',
          },
        ],
      }),
    );
    expect(text).toContain(
      '  dead letter d3e5215ba37c61e8 products.put [10000, 10001, 10002, 10003, 10004 and 51 more] ' +
        'from examples/items.csv:2, 3, 4, 5, 6 and 51 more: products.put (PUT /external/api/products)',
    );
    expect(text).toContain('[SKI, JAK] from a.csv:2; b.csv:7: refused');
  });
});
