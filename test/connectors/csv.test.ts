import { describe, expect, it } from 'vitest';
import { csvConnector } from '../../connectors/csv/index.js';
import { ConnectorError } from '../../connectors/errors.js';
import { readSource } from '../../connectors/read-source.js';
import { chunked, lines, readBytes } from './helpers/read.js';

/** Windows-1252 bytes: æ ø å Æ Ø Å have the same codes in Latin-1 and Windows-1252. */
const cp1252 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('csv connector: encodings', () => {
  it('takes UTF-8 from the byte-order mark and drops the mark from the first column name', async () => {
    const { records, meta } = await readBytes(csvConnector, '\uFEFFid,name\n1,Blåbær\n');
    expect(meta).toMatchObject({
      encoding: 'utf-8',
      encodingSource: 'bom',
      header: ['id', 'name'],
    });
    expect(lines(records)).toEqual([[2, { id: '1', name: 'Blåbær' }]]);
  });

  it('reads UTF-16LE with a byte-order mark', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('id;navn\r\n7;Ærlig Øst\r\n', 'utf16le'),
    ]);
    const { records, meta } = await readBytes(csvConnector, bytes, {}, 3);
    expect(meta).toMatchObject({ encoding: 'utf-16le', delimiter: ';' });
    expect(lines(records)).toEqual([[2, { id: '7', navn: 'Ærlig Øst' }]]);
  });

  it('decodes Windows-1252 letters (æ, ø, å) when the bytes are not UTF-8', async () => {
    const { records, meta } = await readBytes(
      csvConnector,
      cp1252('No.;Navn\r\n1;Smøring\r\n2;Blåbær Æ\r\n'),
    );
    expect(meta).toMatchObject({ encoding: 'windows-1252', encodingSource: 'detected' });
    expect(records.map((r) => r.fields.Navn)).toEqual(['Smøring', 'Blåbær Æ']);
  });

  it('decodes Windows-1252 bytes 0x80-0x9F (€ – “ ” ™ Š) as themselves, not as control characters', async () => {
    // Bytes: € 0x80, – 0x96, “ 0x93, ” 0x94, ™ 0x99, Š 0x8A (Node 20's decoder makes them U+0080-U+009F).
    const name = Buffer.concat([
      cp1252('1;Pris '),
      Buffer.from([0x80, 0x20, 0x96, 0x20, 0x93, 0x41, 0x94, 0x99, 0x8a]),
      cp1252(' Æ\r\n'),
    ]);
    for (const options of [{}, { encoding: 'windows-1252' }]) {
      const { records } = await readBytes(
        csvConnector,
        Buffer.concat([cp1252('No.;Navn\r\n'), name]),
        options,
      );
      expect(records[0]!.fields.Navn).toBe('Pris € – “A”™Š Æ');
    }
  });

  it('reads a Windows-1252 file right when its first non-ASCII byte comes after the sniffed head', async () => {
    const ascii = Array.from(
      { length: 5000 },
      (_v, i) => `${i};plain text row number ${i}\r\n`,
    ).join('');
    const bytes = Buffer.concat([
      Buffer.from(`id;text\r\n${ascii}`),
      cp1252('9999;Tørrfisk på Røst\r\n'),
    ]);
    expect(bytes.length).toBeGreaterThan(128 * 1024);
    const { records, meta } = await readBytes(csvConnector, bytes);
    expect(records.at(-1)!.fields.text).toBe('Tørrfisk på Røst');
    expect(meta.encoding).toBe('windows-1252');
    expect(records).toHaveLength(5001);
  });

  it('reads late UTF-8 as UTF-8, also when a chunk boundary cuts a letter in two', async () => {
    const ascii = 'id,text\n' + 'x,y\n'.repeat(20_000);
    const bytes = Buffer.from(`${ascii}1,Kjøttkaker på tallerken\n`);
    const { records, meta } = await readBytes(csvConnector, bytes, {}, 7);
    expect(records.at(-1)!.fields.text).toBe('Kjøttkaker på tallerken');
    expect(meta.encoding).toBe('utf-8');
  });

  it('rejects only the record holding an invalid byte when a file read as UTF-8 has one later on', async () => {
    const head = `id;text\n1;blåbær\n${'2;plain\n'.repeat(12_000)}`;
    const bytes = Buffer.concat([Buffer.from(head), Buffer.from('3;r\xf8d\n4;ok\n', 'latin1')]);
    const { records, errors, meta } = await readBytes(csvConnector, bytes);
    expect(meta.encoding).toBe('utf-8');
    expect(records[0]!.fields.text).toBe('blåbær');
    expect(records.at(-1)!.fields).toEqual({ id: '4', text: 'ok' });
    expect(errors).toEqual([
      expect.objectContaining({
        line: 12_003,
        field: 'text',
        message: expect.stringMatching(/0xF8 at character 2/),
      }),
    ]);
  });

  it('has the encoding, delimiter and header in meta before the first record', async () => {
    const { items, meta } = readSource(
      { stdin: true },
      'csv',
      {},
      { stdin: chunked(cp1252('a|b\n1|ø\n2|å\n')) },
    );
    let seen = 0;
    for await (const item of items) {
      expect('record' in item).toBe(true);
      expect(meta).toMatchObject({ encoding: 'windows-1252', delimiter: '|', header: ['a', 'b'] });
      if (++seen === 1) break;
    }
    expect(seen).toBe(1);
  });

  it('uses the encoding option over the sniffing', async () => {
    const { records } = await readBytes(csvConnector, Buffer.from('a\n\u00c3\u00b8\n', 'latin1'), {
      encoding: 'windows-1252',
    });
    expect(records[0]!.fields.a).toBe('Ã¸');
  });
});

describe('csv connector: records and lines', () => {
  it('reads CRLF and LF line ends alike, without a trailing CR in the last field', async () => {
    const { records } = await readBytes(csvConnector, 'a;b\r\n1;2\r\n3;4\n5;6');
    expect(lines(records)).toEqual([
      [2, { a: '1', b: '2' }],
      [3, { a: '3', b: '4' }],
      [4, { a: '5', b: '6' }],
    ]);
  });

  it('keeps line breaks, doubled quotes and separators inside quoted fields; lines stay physical', async () => {
    const text =
      'No.;Description;Price\r\n10;"Myk lue\r\nNy linje";1\r\n11;"Robust 12"" modell";2\r\n12;"Lett; limited";3\r\n';
    const { records } = await readBytes(csvConnector, text);
    expect(lines(records)).toEqual([
      [2, { 'No.': '10', Description: 'Myk lue\r\nNy linje', Price: '1' }],
      [4, { 'No.': '11', Description: 'Robust 12" modell', Price: '2' }],
      [5, { 'No.': '12', Description: 'Lett; limited', Price: '3' }],
    ]);
  });

  it('skips blank lines and records of empty fields but counts them for line numbers', async () => {
    const { records, errors } = await readBytes(csvConnector, 'a,b\n\n1,2\r\n\r\n  \n,\n3,4\n\n');
    expect(errors).toEqual([]);
    expect(lines(records)).toEqual([
      [3, { a: '1', b: '2' }],
      [7, { a: '3', b: '4' }],
    ]);
  });

  it('trims header names but not values', async () => {
    const { records, meta } = await readBytes(csvConnector, ' id , name \n 1 , x \n');
    expect(meta.header).toEqual(['id', 'name']);
    expect(records[0]!.fields).toEqual({ id: ' 1 ', name: ' x ' });
  });

  it('gives the same records when the bytes after the sniffed head arrive in tiny chunks', async () => {
    // A long title line fills the 64 KiB head, so the records come through the streaming path.
    const title = `${'Export '.repeat(10_000)}\r\n`;
    const text = `${title}k;"v"\r\n1;"a""b"\r\n2;"x\r\ny;z"\r\n\r\n3;æøå\r\n4;""\r\n5;last`;
    const whole = await readBytes(csvConnector, text, { skipLines: 1 });
    expect(lines(whole.records)).toEqual([
      [3, { k: '1', v: 'a"b' }],
      [4, { k: '2', v: 'x\r\ny;z' }],
      [7, { k: '3', v: 'æøå' }],
      [8, { k: '4', v: '' }],
      [9, { k: '5', v: 'last' }],
    ]);
    for (const size of [1, 2, 3, 5]) {
      const parts = await readBytes(csvConnector, text, { skipLines: 1 }, size);
      expect(lines(parts.records)).toEqual(lines(whole.records));
    }
  });

  it('gives an error item for a record with the wrong number of fields, and reads on', async () => {
    const { records, errors } = await readBytes(
      csvConnector,
      'a;b;c\n1;2;3\n4;5\n6;7;8;9\n10;11;12\n',
    );
    expect(errors).toEqual([
      expect.objectContaining({
        file: 'input.test',
        line: 3,
        message: expect.stringMatching(/2 fields where the header has 3/),
      }),
      expect.objectContaining({ line: 4, message: expect.stringMatching(/4 fields/) }),
    ]);
    expect(records.map((r) => r.source.line)).toEqual([2, 5]);
  });

  it('gives an error item for a quoted field that is never closed', async () => {
    const { records, errors } = await readBytes(csvConnector, 'a,b\n1,2\n3,"open\n4,5\n');
    expect(records).toHaveLength(1);
    expect(errors).toEqual([
      expect.objectContaining({
        line: 3,
        field: 'b',
        message: expect.stringMatching(/never closed/),
      }),
    ]);
  });

  it('names the columns 1, 2, ... with header=false, and skips skipLines first', async () => {
    const { records, meta } = await readBytes(csvConnector, 'Export of 2026-02-14\nx;y\n1;2\n', {
      header: false,
      skipLines: 1,
    });
    expect(meta.header).toEqual(['1', '2']);
    expect(lines(records)).toEqual([
      [2, { '1': 'x', '2': 'y' }],
      [3, { '1': '1', '2': '2' }],
    ]);
  });

  it('reads an empty file and a header-only file as no records', async () => {
    const empty = await readBytes(csvConnector, '');
    expect(empty).toMatchObject({ records: [], errors: [], meta: { header: [] } });
    const headerOnly = await readBytes(csvConnector, 'No.;Description\r\n');
    expect(headerOnly).toMatchObject({
      records: [],
      errors: [],
      meta: { header: ['No.', 'Description'], delimiter: ';' },
    });
  });

  it('refuses a header that names a column twice', async () => {
    await expect(readBytes(csvConnector, 'a,b,a\n1,2,3\n')).rejects.toThrow(
      /names two columns "a" \(columns 1 and 3\)/,
    );
  });
});

describe('csv connector: delimiters', () => {
  it.each([
    [',', 'a,b,"c;d"\n1,2,3\n'],
    [';', 'a;b;"c,d"\n1;2;3\n'],
    ['\t', 'a\tb\tc,d\n1\t2\t3\n'],
    ['|', 'a|b|c\n1|2|3\n'],
  ])('detects %j from the header line', async (delimiter, text) => {
    const { records, meta } = await readBytes(csvConnector, text);
    expect(meta).toMatchObject({ delimiter, delimiterSource: 'detected' });
    expect(Object.values(records[0]!.fields)).toEqual(['1', '2', '3']);
  });

  it('uses the delimiter option (tab) and refuses one the header line does not have', async () => {
    const { meta } = await readBytes(csvConnector, 'a\tb\n1\t2\n', { delimiter: 'tab' });
    expect(meta).toMatchObject({ delimiter: '\t', delimiterSource: 'option' });
    await expect(readBytes(csvConnector, 'a,b\n1,2\n', { delimiter: ';' })).rejects.toThrow(
      /header line has no ";" \(the delimiter option\) but 1 ","/,
    );
  });
});

describe('csv connector: input that is not CSV', () => {
  it.each([
    [
      'XML',
      '<?xml version="1.0"?>\n<Items><Item/></Items>\n',
      /looks like XML, not CSV: read it with the xml connector/,
    ],
    ['JSON', '[{"id": 1}]\n', /looks like JSON, not CSV/],
    [
      'binary data',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      /is a PNG image, not text/,
    ],
    [
      'a zip archive',
      Buffer.from('PK\u0003\u0004rest of a zip', 'latin1'),
      /zip archive \(an XLSX workbook\?\)/,
    ],
  ])('refuses %s with a FERRY_CONNECTOR error naming the file', async (_kind, bytes, message) => {
    const error = await readBytes(csvConnector, bytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe('FERRY_CONNECTOR');
    expect((error as Error).message).toMatch(/input\.test/);
    expect((error as Error).message).toMatch(message);
  });
});
