import { describe, expect, it } from 'vitest';
import { planSummary } from '../../src/pipeline/plan-report.js';
import { rowErrorText } from '../../src/pipeline/row-error-text.js';
import type { Plan } from '../../src/pipeline/types.js';
import type { RowError } from '../../src/base/records.js';
import { reportText } from '../../src/runs/report-text.js';
import type { RunReport } from '../../src/runs/run-report.js';

const required: RowError = {
  file: 'examples/items.csv',
  line: 28,
  field: 'Description',
  message: 'Description: required, but empty',
};
const unreadable: RowError = {
  file: 'examples/items.csv',
  line: 3,
  field: 'Unit Price',
  message: 'expected a decimal, got "12,34,56"',
};
const noField: RowError = { file: 'a.csv', line: 7, message: 'the record has 1 fields' };

describe('a rejected record for people', () => {
  it('is file:line  field: message, without repeating a field the message starts with', () => {
    expect(rowErrorText(required)).toBe('examples/items.csv:28  Description: required, but empty');
    expect(rowErrorText(unreadable)).toBe(
      'examples/items.csv:3  Unit Price: expected a decimal, got "12,34,56"',
    );
    expect(rowErrorText(noField)).toBe('a.csv:7  the record has 1 fields');
  });

  it('reads so in the plan summary and in the run report', () => {
    const plan: Plan = {
      pipeline: 'catalog',
      version: 1,
      rows: 2,
      stages: [],
      operations: {},
      errors: [required, unreadable],
      deletes: 0,
      unchanged: {},
    };
    const summary = planSummary(plan, 'examples/items.csv');
    expect(summary).toContain('\n  examples/items.csv:28  Description: required, but empty\n');
    expect(summary).toContain('\n  examples/items.csv:3  Unit Price: expected a decimal');
    const report: RunReport = {
      runId: 'r1',
      pipeline: 'catalog',
      kind: 'sync',
      trigger: 'cli',
      status: 'partial',
      version: 1,
      rows: 2,
      startedAt: new Date(0).toISOString(),
      operations: {},
      items: {
        planned: 0,
        settled: 0,
        delivered: 0,
        failed: 0,
        stale: 0,
        cancelled: 0,
        unchanged: 0,
      },
      errors: [required],
      rejected: 1,
      deadLettered: 0,
      deadLetters: [],
      stages: [],
    };
    const text = reportText(report);
    expect(text).toContain(
      '\n  rejected examples/items.csv:28  Description: required, but empty\n',
    );
    expect(text).not.toContain('(Description)');
  });
});
