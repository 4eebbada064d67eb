/**
 * No record vanishes: one record or field over the connector's limit, at the start, in the middle
 * and at the end of a file of each format, is one row error naming the file, the line, its size,
 * the limit and the option that raises it, and every other record is read. Time and peak memory of
 * the same inputs at full size (17 MiB, a 2 GB hole) are measured by bench/hostile-inputs.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSource } from '../../connectors/read-source.js';
import type { RowError } from '../../src/base/records.js';
import { collect } from './helpers/read.js';
import { tempDir } from './helpers/tmp.js';
import { buildXlsx, type CellSpec } from './helpers/xlsx-builder.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

const LIMIT = 64 * 1024;
const GIANT = 256 * 1024;
const POSITIONS = ['start', 'middle', 'end'] as const;
type Position = (typeof POSITIONS)[number];
const NORMAL = ['1', '2', '3', '4'];

/** Letters that do not repeat (a workbook of one letter repeated packs like a zip bomb). */
function letters(length: number): string {
  let seed = 7;
  let out = '';
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(97 + (seed % 26));
  }
  return out;
}
const GIANT_TEXT = letters(GIANT);

/** The records in file order, the giant one (`null`) at `position`; its index. */
function order(position: Position): { skus: (string | null)[]; at: number } {
  const at = position === 'start' ? 0 : position === 'middle' ? 2 : NORMAL.length;
  const skus: (string | null)[] = [...NORMAL];
  skus.splice(at, 0, null);
  return { skus, at };
}

interface Case {
  connector: string;
  options: Record<string, unknown>;
  /** The file's name and content, the giant record at `position`. */
  file(position: Position): { name: string; content: string | Buffer };
  /** The line of the record at index `i` of the file's records. */
  line(i: number): number;
  field?: string;
  /** The message for the giant record. */
  message: string;
}

const tail = (what: string, bytes: number, connector: string, option: string): string =>
  `${what} is ${bytes} bytes, larger than ${option} (${LIMIT} bytes): it was not read ` +
  `(the ${connector} option ${option} raises the limit)`;

const jsonGiant = `{"sku":"G","name":"${GIANT_TEXT}"}`;

const CASES: Case[] = [
  {
    connector: 'csv',
    options: { maxFieldBytes: LIMIT },
    // A line with no delimiter (the export's broken record), the last one without a line break.
    file: (position) => ({
      name: `giant-${position}.csv`,
      content: `sku,name\n${order(position)
        .skus.map((sku) => (sku === null ? GIANT_TEXT : `${sku},name ${sku}`))
        .join('\n')}`,
    }),
    line: (i) => i + 2,
    field: 'sku',
    message: tail('the field', GIANT, 'csv', 'maxFieldBytes'),
  },
  {
    connector: 'json',
    options: { maxRecordBytes: LIMIT },
    file: (position) => ({
      name: `giant-${position}.json`,
      content: `[\n${order(position)
        .skus.map((sku) => (sku === null ? jsonGiant : `{"sku":"${sku}","name":"name ${sku}"}`))
        .join(',\n')}\n]\n`,
    }),
    line: (i) => i + 2,
    message: tail('the record', jsonGiant.length, 'json', 'maxRecordBytes'),
  },
  {
    connector: 'json',
    options: { maxRecordBytes: LIMIT },
    file: (position) => ({
      name: `giant-${position}.ndjson`,
      content: order(position)
        .skus.map((sku) => (sku === null ? jsonGiant : `{"sku":"${sku}","name":"name ${sku}"}`))
        .join('\n'),
    }),
    line: (i) => i + 1,
    message: tail('the record', jsonGiant.length, 'json', 'maxRecordBytes'),
  },
  {
    connector: 'xml',
    options: { recordElement: 'item', maxFieldBytes: LIMIT },
    file: (position) => ({
      name: `giant-${position}.xml`,
      content: `<items>\n${order(position)
        .skus.map(
          (sku) =>
            `<item><sku>${sku ?? 'G'}</sku><name>${sku === null ? GIANT_TEXT : `name ${sku}`}</name></item>`,
        )
        .join('\n')}\n</items>\n`,
    }),
    line: (i) => i + 2,
    field: 'name',
    message: tail('the text', GIANT, 'xml', 'maxFieldBytes'),
  },
  {
    connector: 'xlsx',
    options: { maxFieldBytes: LIMIT },
    // The giant text inline in its cell; the normal ones shared strings.
    file: (position) => {
      const rows: CellSpec[][] = order(position).skus.map((sku) =>
        sku === null ? ['G', { inline: GIANT_TEXT }] : [sku, `name ${sku}`],
      );
      return {
        name: `giant-${position}.xlsx`,
        content: buildXlsx([{ name: 'Items', rows: [['sku', 'name'], ...rows] }]),
      };
    },
    line: (i) => i + 2,
    field: 'name',
    message: 'holds a text that',
  },
];

function put(name: string, content: string | Buffer): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, content);
  return file;
}

describe.each(CASES)('a giant record in $connector', (c) => {
  it.each(POSITIONS)(
    'at the %s of the file is one row error, and the others are read',
    async (position) => {
      const { name, content } = c.file(position);
      const file = put(name, content);
      const { records, errors } = await collect(readSource({ file }, c.connector, c.options).items);
      const { at } = order(position);
      expect(records.map((r) => r.fields.sku)).toEqual(NORMAL);
      expect(records.map((r) => r.source.line)).toEqual(
        NORMAL.map((_sku, i) => c.line(i < at ? i : i + 1)),
      );
      const message =
        c.connector === 'xlsx'
          ? `cell B${c.line(at)} ${tail(c.message, GIANT, 'xlsx', 'maxFieldBytes')}`
          : c.message;
      const expected: RowError = { file, line: c.line(at), message };
      if (c.field) expected.field = c.field;
      expect(errors).toEqual([expected]);
    },
  );
});

describe('a giant record at the default limits', () => {
  it('a 17 MiB csv line without a delimiter is an error, not a vanished record', async () => {
    const line = 'x'.repeat(17 * 1024 * 1024);
    const file = put('17mib.csv', `No.,name\n1,one\n${line}\n2,two\n`);
    const { records, errors } = await collect(readSource({ file }, 'csv').items);
    expect(records.map((r) => r.fields['No.'])).toEqual(['1', '2']);
    expect(errors).toEqual([
      {
        file,
        line: 3,
        field: 'No.',
        message:
          'the field is 17825792 bytes, larger than maxFieldBytes (16777216 bytes): it was not read ' +
          '(the csv option maxFieldBytes raises the limit)',
      },
    ]);
  });

  it('a shared string over the xlsx limit is an error for the row of each cell that shows it', async () => {
    const rows: CellSpec[][] = [
      ['sku', 'name'],
      ['1', 'one'],
      ['2', GIANT_TEXT],
      ['3', 'three'],
    ];
    const file = put('shared.xlsx', buildXlsx([{ name: 'Items', rows }]));
    const { records, errors } = await collect(
      readSource({ file }, 'xlsx', { maxFieldBytes: LIMIT }).items,
    );
    expect(records.map((r) => r.fields.sku)).toEqual(['1', '3']);
    expect(errors).toEqual([
      {
        file,
        line: 3,
        field: 'name',
        message: `cell B3 refers to shared string 5, which ${tail('', GIANT, 'xlsx', 'maxFieldBytes').trimStart()}`,
      },
    ]);
  });
});
