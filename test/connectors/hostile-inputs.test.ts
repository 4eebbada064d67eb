/**
 * Hostile inputs: each is read or refused out loud, naming the file (and the line where there is
 * one), and never expanded, inflated or walked without a bound. Time and memory of the same
 * inputs are measured by bench/hostile-inputs.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readSource } from '../../connectors/read-source.js';
import { collect, type Collected } from './helpers/read.js';
import { tempDir } from './helpers/tmp.js';
import { xlsxParts } from './helpers/xlsx-builder.js';
import { zip } from './helpers/zip-writer.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

function put(name: string, content: string | Buffer): string {
  const file = join(tmp.dir, name);
  writeFileSync(file, content);
  return file;
}

async function read(
  file: string,
  connector?: string,
  options: Record<string, unknown> = {},
): Promise<Collected> {
  return await collect(readSource({ file }, connector, options).items);
}

async function refusal(
  file: string,
  connector?: string,
  options: Record<string, unknown> = {},
): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  const error = await read(file, connector, options).then(
    () => expect.fail(`${file} was read`),
    (e: unknown) => e as { code: string; message: string; details: Record<string, unknown> },
  );
  expect(error.message).toContain(file);
  return error;
}

describe('XML', () => {
  it('refuses an external entity without reading what it names', async () => {
    const file = put(
      'xxe.xml',
      '<?xml version="1.0"?>\n<!DOCTYPE items [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n' +
        '<items><item><sku>1</sku><name>&x;</name></item></items>\n',
    );
    const error = await refusal(file, 'xml', { recordElement: 'item' });
    expect(error.code).toBe('FERRY_CONNECTOR');
    expect(error.message).toContain('declares entities in its DOCTYPE (which ends on line 2)');
    expect(error.message).not.toContain('root:');
  });

  it('refuses entity expansion (a billion laughs) before expanding anything', async () => {
    const declarations = Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`,
    );
    const file = put(
      'laughs.xml',
      `<?xml version="1.0"?>\n<!DOCTYPE items [\n<!ENTITY lol0 "lol">\n${declarations.join('\n')}\n]>\n` +
        '<items><item><sku>1</sku><name>&lol9;</name></item></items>\n',
    );
    const error = await refusal(file, 'xml', { recordElement: 'item' });
    expect(error.message).toContain('which ends on line 13');
    expect(error.details.line).toBe(13);
  });

  it('reads a document whose DOCTYPE only names a DTD', async () => {
    const file = put(
      'dtd.xml',
      '<?xml version="1.0"?>\n<!DOCTYPE items SYSTEM "http://127.0.0.1:9/items.dtd">\n' +
        '<items><item><sku>1</sku></item></items>\n',
    );
    const { records } = await read(file, 'xml', { recordElement: 'item' });
    expect(records.map((r) => r.fields)).toEqual([{ sku: '1' }]);
  });
});

describe('XLSX and its zip parts', () => {
  const MiB = 1024 * 1024;
  const sheetWithCell = (text: string): string =>
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
    '<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c></row>' +
    `<row r="2"><c r="A2" t="inlineStr"><is><t>${text}</t></is></c></row>` +
    '<row r="3"><c r="A3" t="inlineStr"><is><t>ok</t></is></c></row></sheetData></worksheet>';
  /** Letters that do not repeat, so they pack like real text. */
  const text = (length: number): string => {
    let out = '';
    for (let i = 1; out.length < length; i++) out += (i * 2654435761).toString(36);
    return out.slice(0, length);
  };
  const workbook = (sheet: string, declaredSizes: Record<string, number> = {}): Buffer => {
    const parts = xlsxParts([{ name: 'Items', rows: [['sku']] }]);
    parts['xl/worksheets/sheet1.xml'] = sheet;
    return zip(parts, declaredSizes);
  };

  it('refuses a zip bomb by its compression ratio before unpacking it', async () => {
    // 64 MiB of one letter packs to ~64 KiB: a ratio of about a thousand.
    const file = put('bomb.xlsx', workbook(sheetWithCell('A'.repeat(64 * MiB))));
    const error = await refusal(file);
    expect(error.code).toBe('FERRY_CONNECTOR');
    expect(error.message).toMatch(
      /part xl\/worksheets\/sheet1\.xml unpacks from 0\.1 MiB to 64\.0 MiB \(\d+ times\), more than maxCompressionRatio \(200\): refused as a zip bomb before unpacking/,
    );
    expect(error.details.part).toBe('xl/worksheets/sheet1.xml');
  });

  it('refuses a part larger than maxPartBytes, saying which option allows it', async () => {
    const file = put('large.xlsx', workbook(sheetWithCell(text(4 * MiB))));
    const error = await refusal(file, undefined, { maxPartBytes: 2 * MiB });
    expect(error.message).toContain(
      'unpacks to 4.0 MiB, more than maxPartBytes (2.0 MiB): refused before unpacking',
    );
    const allowed = await read(file, undefined, { maxPartBytes: 8 * MiB, maxFieldBytes: 8 * MiB });
    expect(allowed.records).toHaveLength(2);
  });

  it('stops a part that unpacks to more than its headers declare', async () => {
    const sheet = sheetWithCell('A'.repeat(8 * MiB));
    const file = put('lying.xlsx', workbook(sheet, { 'xl/worksheets/sheet1.xml': 1000 }));
    const error = await refusal(file);
    expect(error.message).toContain(
      'the workbook part xl/worksheets/sheet1.xml cannot be unpacked',
    );
    expect(error.message).toContain('expected 1000');
  });

  it('rejects the row of a cell text longer than maxFieldBytes, naming its size, and reads on', async () => {
    const file = put('bigcell.xlsx', workbook(sheetWithCell(text(2 * MiB))));
    const { records, errors } = await read(file, undefined, { maxFieldBytes: MiB });
    expect(records.map((r) => [r.source.line, r.fields])).toEqual([[3, { sku: 'ok' }]]);
    expect(errors).toEqual([
      {
        file,
        line: 2,
        field: 'sku',
        message:
          'cell A2 holds a text that is 2097152 bytes, larger than maxFieldBytes (1048576 bytes): ' +
          'it was not read (the xlsx option maxFieldBytes raises the limit)',
      },
    ]);
  });

  it('stops at an attribute value longer than maxFieldBytes, naming the part', async () => {
    const sheet = sheetWithCell('x').replace('<c r="A2"', `<c r="A2" x="${text(2 * MiB)}"`);
    const error = await refusal(put('bigattr.xlsx', workbook(sheet)), undefined, {
      maxFieldBytes: MiB,
    });
    expect(error.message).toContain(
      'the workbook part xl/worksheets/sheet1.xml holds a tag or attribute value longer than maxFieldBytes (1048576) near line 1: reading stopped',
    );
  });

  it('refuses a zip with a part that is not deflate data', async () => {
    const parts = xlsxParts([{ name: 'Items', rows: [['sku'], ['1']] }]);
    const bytes = zip(parts);
    // Garble the sheet's packed bytes in place.
    const at = bytes.indexOf(deflateRawSync(Buffer.from(parts['xl/worksheets/sheet1.xml']!)));
    bytes.fill(0xff, at, at + 16);
    const error = await refusal(put('garbled.xlsx', bytes));
    expect(error.message).toContain('cannot be unpacked');
  });
});

describe('CSV', () => {
  it('rejects a 50 MB field by line and field, and reads the records around it', async () => {
    const file = put('bigfield.csv', `sku,name\n1,${'a'.repeat(50_000_000)}\n2,b\n`);
    const { records, errors } = await read(file);
    expect(records.map((r) => [r.source.line, r.fields])).toEqual([[3, { sku: '2', name: 'b' }]]);
    expect(errors).toEqual([
      {
        file,
        line: 2,
        field: 'name',
        message: expect.stringContaining('larger than maxFieldBytes (16777216 bytes)'),
      },
    ]);
  });

  it('refuses a million-column header on line 1', async () => {
    const header = Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',');
    const file = put('columns.csv', `${header}\n${'1,'.repeat(999_999)}1\n`);
    const error = await refusal(file);
    expect(error.code).toBe('FERRY_CONNECTOR');
    expect(error.details.line).toBe(1);
    expect(error.message).toContain('runs past 1048576 characters without a line break');
  });

  it('rejects the record holding a NUL byte or an invalid UTF-8 byte, and reads the others', async () => {
    const file = put(
      'bytes.csv',
      Buffer.concat([
        Buffer.from('sku,name\n1,caf\u00e9\n2,a\u0000b\n3,c'),
        Buffer.from([0xff]),
        Buffer.from('d\n4,ok\n'),
      ]),
    );
    const { records, errors } = await read(file);
    expect(records.map((r) => r.fields.sku)).toEqual(['1', '4']);
    expect(errors.map((e) => [e.line, e.field])).toEqual([
      [3, 'name'],
      [4, 'name'],
    ]);
    expect(errors[0]!.message).toContain('0x00');
    expect(errors[1]!.message).toContain('0xFF');
  });

  it.each([
    ['an empty file', ''],
    ['a header-only file', 'sku,name\n'],
  ])('refuses %s as holding no records', async (_kind, text) => {
    const error = await refusal(put(`nothing-${text.length}.csv`, text));
    expect(error.code).toBe('FERRY_NO_RECORDS');
  });
});

describe('JSON', () => {
  it('rejects a record nested 100,000 deep by its line, and reads the others', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const file = put('deep.json', `[{"sku":"1"},\n{"sku":"2","x":${deep}},\n{"sku":"3"}]\n`);
    const { records, errors } = await read(file);
    expect(records.map((r) => r.fields.sku)).toEqual(['1', '3']);
    expect(errors).toEqual([
      {
        file,
        line: 2,
        message:
          'the record nests objects or arrays deeper than 64 levels (under "x"): it was not read',
      },
    ]);
  });
});

describe('byte-order marks and invisible characters', () => {
  it('honours a UTF-8 byte-order mark over encoding: windows-1252, saying so', async () => {
    const file = put('bom-1252.csv', '\uFEFFNo.;Name\n1;Café\n');
    const result = readSource({ file }, 'csv', { encoding: 'windows-1252' });
    const { records, errors } = await collect(result.items);
    expect(errors).toEqual([]);
    expect(records.map((r) => r.fields)).toEqual([{ 'No.': '1', Name: 'Café' }]);
    expect(result.meta).toMatchObject({
      encoding: 'utf-8',
      encodingSource: 'bom',
      encodingOptionOverruled: 'windows-1252',
    });
  });

  it.each([
    ['utf-16le', Buffer.from([0xff, 0xfe])],
    ['utf-16be', Buffer.from([0xfe, 0xff])],
  ])('reads %s with its byte-order mark whatever the option says', async (encoding, bom) => {
    const text = Buffer.from('sku,name\n1,Åre\n', 'utf16le');
    const body = encoding === 'utf-16be' ? Buffer.from(text).swap16() : text;
    const result = readSource(
      { file: put(`bom-${encoding}.csv`, Buffer.concat([bom, body])) },
      'csv',
      {
        encoding: 'utf-8',
      },
    );
    const { records } = await collect(result.items);
    expect(records.map((r) => r.fields)).toEqual([{ sku: '1', name: 'Åre' }]);
    expect(result.meta).toMatchObject({ encoding, encodingSource: 'bom' });
  });

  it('refuses a header name holding a zero-width space, naming the code point, or strips it', async () => {
    const file = put('zwsp-header.csv', 'sku,Na\u200Bme\n1,a\n');
    const error = await refusal(file);
    expect(error.code).toBe('FERRY_CONNECTOR');
    expect(error.message).toContain(
      'the column name "Na\\u200Bme" holds U+200B ZERO WIDTH SPACE at column 3, an invisible character',
    );
    expect(error.details).toMatchObject({ line: 1, column: 'Na\\u200Bme' });
    const { records } = await read(file, undefined, { invisibleInNames: 'strip' });
    expect(records.map((r) => r.fields)).toEqual([{ sku: '1', Name: 'a' }]);
  });

  it('rejects a JSON record whose key holds a bidi control, and reads the others', async () => {
    const file = put('bidi-key.ndjson', '{"sku":"1"}\n{"s\\u202eku":"2"}\n{"sku":"3"}\n');
    const { records, errors } = await read(file);
    expect(records.map((r) => r.fields.sku)).toEqual(['1', '3']);
    expect(errors).toEqual([
      {
        file,
        line: 2,
        field: 's\\u202Eku',
        message: expect.stringContaining('U+202E RIGHT-TO-LEFT OVERRIDE at column 2'),
      },
    ]);
  });
});

describe('JSON repeated keys', () => {
  it('rejects a record that gives a key twice, naming the key and line, and reads the others', async () => {
    const file = put(
      'repeated.json',
      '[{"sku":"J1"},\n{"sku":"J2",\n "sku":"J3"},\n{"a":{"b":"1","b":"2"}},\n{"sku":"J4"}]\n',
    );
    const { records, errors } = await read(file);
    expect(records.map((r) => r.fields)).toEqual([{ sku: 'J1' }, { sku: 'J4' }]);
    expect(errors).toEqual([
      {
        file,
        line: 2,
        field: 'sku',
        message:
          'the key "sku" is given twice in one object (again on line 3): JSON would keep the last value without a word, so the record was not read',
      },
      {
        file,
        line: 4,
        field: 'a.b',
        message: expect.stringContaining('the key "b" is given twice'),
      },
    ]);
  });
  it('names a repeated key holding a dot exactly, not by what follows its last dot', async () => {
    const file = put('dotted.ndjson', '{"price.":"1","price.":"2"}\n{"a":{"x.y":"1","x.y":"2"}}\n');
    const { errors } = await read(file);
    expect(errors).toEqual([
      {
        file,
        line: 1,
        field: 'price.',
        message: expect.stringContaining('the key "price." is given twice in one object'),
      },
      {
        file,
        line: 2,
        field: 'a.x.y',
        message: expect.stringContaining('the key "x.y" is given twice in one object'),
      },
    ]);
  });
});

describe('XML attributes', () => {
  it('rejects an element with more attributes than maxAttributes, and reads the others', async () => {
    const many = Array.from({ length: 50 }, (_, i) => ` a${i}="${i}"`).join('');
    const file = put(
      'attributes.xml',
      `<items>\n<item><sku>1</sku></item>\n<item><sku${many}>2</sku></item>\n<item${many}/>\n<item><sku>4</sku></item>\n</items>\n`,
    );
    const { records, errors } = await read(file, 'xml', {
      recordElement: 'item',
      maxAttributes: 40,
    });
    expect(records.map((r) => r.fields.sku)).toEqual(['1', '4']);
    expect(errors).toEqual([
      {
        file,
        line: 3,
        field: 'sku',
        message:
          'the element <sku> (line 3) has 50 attributes, more than maxAttributes (40): the record was not read',
      },
      { file, line: 4, message: expect.stringContaining('<item> (line 4) has 50 attributes') },
    ]);
    const allowed = await read(file, 'xml', { recordElement: 'item' });
    expect(allowed.records).toHaveLength(4);
    expect(allowed.records[1]!.fields['sku@a49']).toBe('49');
  });
});

describe('paths', () => {
  it('refuses a folder with nothing to read, naming it', async () => {
    const folder = join(tmp.dir, 'empty-folder');
    mkdirSync(folder);
    const error = await refusal(folder);
    expect(error.code).toBe('FERRY_SOURCE');
  });

  it('refuses a missing path with exit code 2', async () => {
    const missing = join(tmp.dir, 'no-such-export.csv');
    const error = (await refusal(missing)) as unknown as { code: string; exitCode: number };
    expect(error.code).toBe('FERRY_SOURCE');
    expect(error.exitCode).toBe(2);
  });
});
