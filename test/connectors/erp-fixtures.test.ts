import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readSource } from '../../connectors/read-source.js';
import { sharedPath } from '../helpers/shared.js';
import { collect } from './helpers/read.js';

interface Expected {
  rows: number;
  errors: number[];
}

const expected = JSON.parse(
  readFileSync(sharedPath('fixtures/erp/expected.json'), 'utf8'),
) as Record<string, Expected>;

async function read(name: string) {
  const { items, meta } = readSource({ file: sharedPath(`fixtures/erp/${name}.csv`) });
  return collect(items, meta);
}

describe('the ERP sample exports (shared/fixtures/erp)', () => {
  it.each([
    ['items', 'windows-1252', ';', 'No.'],
    ['stores', 'utf-8', ',', 'Store No.'],
    ['users', 'utf-8', ',', 'Employee No.'],
    ['item-changes', 'utf-8', ';', 'Change Type'],
  ])(
    '%s.csv: the rows of expected.json, from line 2, the rejected lines among them',
    async (name, encoding, delimiter, first) => {
      const { records, errors, meta } = await read(name);
      expect(errors).toEqual([]);
      expect(records).toHaveLength(expected[name]!.rows);
      expect(meta).toMatchObject({ encoding, delimiter, connector: 'csv' });
      expect((meta.header as string[])[0]).toBe(first);
      expect(records[0]!.source).toEqual({ file: sharedPath(`fixtures/erp/${name}.csv`), line: 2 });
      const starts = records.map((r) => r.source.line);
      for (const line of expected[name]!.errors) expect(starts).toContain(line);
    },
  );

  it('items.csv: physical lines past blank lines and a quoted line break; letters and quotes decoded', async () => {
    const { records } = await read('items');
    const at = (line: number) => records.find((r) => r.source.line === line)?.fields;
    expect(at(27)).toMatchObject({
      'No.': '10023',
      Description: 'Myk jakke 12" modell',
      'Vendor Name': 'Åsnes',
    });
    expect(at(30)).toMatchObject({
      'No.': '10026',
      Description: 'Myk lue\nNy linje i beskrivelsen',
    });
    expect(at(31)).toBeUndefined();
    expect(at(32)).toMatchObject({ 'No.': '10027' });
    expect(at(42)).toMatchObject({ Description: 'Lett sokker; limited', 'Unit Price': '853,95' });
    expect(at(66)).toMatchObject({ 'No.': '010256', GTIN: '0843345300851' });
    expect(at(3)).toMatchObject({ 'No.': '074116', 'Unit Price': '2\u00a0099,73' });
  });

  it('stores.csv: the byte-order mark is not part of the first column name', async () => {
    const { records } = await read('stores');
    expect(records[0]!.fields).toMatchObject({ 'Store No.': 'S001', Name: '"Oslo" Sentrum, 1' });
  });
});
