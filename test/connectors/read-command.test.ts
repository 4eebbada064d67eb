import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ferryHere, type CliRun } from '../helpers/ferry-here.js';
import { sharedPath } from '../helpers/shared.js';
import { tempDir } from './helpers/tmp.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

/** `ferry read ...` through the CLI's main(), as an operator runs it (output and exit code). */
function ferryRead(args: string[], input?: string): Promise<CliRun> {
  return ferryHere(['read', ...args], {
    env: { ...process.env, FERRY_LOG_LEVEL: 'silent' },
    ...(input === undefined ? {} : { stdin: input }),
  });
}

describe('ferry read', () => {
  it('--json prints only an array of {line, fields} on stdout, and exits 0', async () => {
    const run = await ferryRead([sharedPath('fixtures/erp/items.csv'), '--json']);
    expect(run.code).toBe(0);
    const rows = JSON.parse(run.stdout) as Array<{ line: number; fields: Record<string, string> }>;
    expect(rows).toHaveLength(61);
    expect(Object.keys(rows[0]!)).toEqual(['line', 'fields']);
    expect(rows[0]).toMatchObject({
      line: 2,
      fields: { 'No.': '10000', 'Vendor Name': 'Norrøna' },
    });
    expect(rows.find((r) => r.fields['No.'] === '10027')?.line).toBe(32);
  });

  it('shows how the encoding was decided, the columns it ignores, and each rejected byte', async () => {
    const path = join(tmp.dir, 'stray.csv');
    const rows = Array.from({ length: 200 }, (_v, i) => `${i + 1};Crème brûlée café ${i + 1};\n`);
    const bytes = Buffer.from(`sku;name;\n${rows.join('')}`);
    const at = bytes.indexOf(Buffer.from('café 151'));
    writeFileSync(
      path,
      Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 5)]),
    );
    const run = await ferryRead([path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /encoding {3}utf-8 \(detected: \d{3} multi-byte sequences, 1 invalid byte\)/,
    );
    expect(run.stdout).toContain('ignored    columns 3 (no name in the header; must stay empty)');
    expect(run.stdout).toContain('199 records, 1 unreadable');
    expect(run.stderr).toContain(`${path}:152  name: holds the byte 0xFF at character 14`);
  });

  it('lists unreadable records with their lines on stderr and exits 1', async () => {
    const path = join(tmp.dir, 'bad.csv');
    writeFileSync(path, 'id;name\n1;a\n2\n3;c\n');
    const run = await ferryRead([path, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual([
      { line: 2, fields: { id: '1', name: 'a' } },
      { line: 4, fields: { id: '3', name: 'c' } },
    ]);
    expect(run.stderr).toContain(`${path}:3  the record has 1 field where the header has 2`);
  });

  it('reads stdin (-) and shows the encoding, delimiter and header it found', async () => {
    const run = await ferryRead(
      ['-', '--connector', 'csv', '--limit', '1'],
      'Employee No.|Name\nE1|Åse\nE2|Kari\n',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('source     stdin');
    expect(run.stdout).toContain('delimiter  "|" (detected)');
    expect(run.stdout).toContain('header     Employee No. | Name (2 columns)');
    expect(run.stdout).toContain('line 2: {"Employee No.":"E1","Name":"Åse"}');
    expect(run.stdout).not.toContain('E2');
  });

  it('exits 2 with the option named for a bad --option, and 1 with a clear error for input of another format', async () => {
    const bad = await ferryRead([
      sharedPath('fixtures/erp/users.csv'),
      '--option',
      'delimiter=x',
      '--json',
    ]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'FERRY_CONFIG_INVALID' } });
    expect(bad.stderr).toContain(
      'delimiter: expected one of "auto", ",", ";", "tab", "|", got "x"',
    );

    const xml = join(tmp.dir, 'items.csv');
    writeFileSync(xml, '<?xml version="1.0"?>\n<Items/>\n');
    const wrong = await ferryRead([xml, '--json']);
    expect(wrong.code).toBe(1);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ error: { code: 'FERRY_CONNECTOR' } });
    expect(wrong.stderr).toContain(`${xml} looks like XML, not CSV`);
    expect(wrong.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
