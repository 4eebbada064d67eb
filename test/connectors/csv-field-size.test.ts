import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvConnector } from '../../connectors/csv/index.js';
import { readSource } from '../../connectors/read-source.js';
import { collect, readBytes } from './helpers/read.js';

/** A CSV whose second record has a 50 MB field, generated as it is read (never held whole). */
function fiftyMegabyteField(): Readable {
  const piece = Buffer.alloc(64 * 1024, 'x');
  const pieces = (50 * 1024 * 1024) / piece.length;
  async function* bytes(): AsyncGenerator<Buffer> {
    yield Buffer.from('id,description,price\n1,small,10\n2,"');
    for (let i = 0; i < pieces; i++) yield piece;
    yield Buffer.from('",20\n3,after,30\n');
  }
  return Readable.from(bytes(), { objectMode: false });
}

describe('csv connector: field size limit', () => {
  it('refuses a 50 MB field with an error naming the file, line and field, and reads on', async () => {
    const { items } = readSource({ stdin: true }, 'csv', {}, { stdin: fiftyMegabyteField() });
    const { records, errors } = await collect(items);
    expect(records.map((r) => [r.source.line, r.fields.id])).toEqual([
      [2, '1'],
      [4, '3'],
    ]);
    expect(errors).toEqual([
      {
        file: 'stdin',
        line: 3,
        field: 'description',
        message:
          'the field is 52428800 bytes, larger than maxFieldBytes (16777216 bytes): it was not read ' +
          '(the csv option maxFieldBytes raises the limit)',
      },
    ]);
  });

  it('counts the limit in UTF-8 bytes, not characters', async () => {
    const text = 'a,b\n1,ææææ\n2,æææææ\n'; // 8 and 10 bytes
    const { records, errors } = await readBytes(csvConnector, text, { maxFieldBytes: 9 });
    expect(records.map((r) => r.fields.b)).toEqual(['ææææ']);
    expect(errors).toEqual([expect.objectContaining({ line: 3, field: 'b' })]);
  });

  it('applies the limit to a field that spans many chunks', async () => {
    const long = 'y'.repeat(100);
    const { records, errors } = await readBytes(
      csvConnector,
      `a,b\n1,"${long}"\n2,ok\n`,
      { maxFieldBytes: 50 },
      7,
    );
    expect(records.map((r) => r.fields.b)).toEqual(['ok']);
    expect(errors.map((e) => e.line)).toEqual([2]);
  });

  it('refuses a record whose fields add up to more than maxRecordBytes, naming its size, and reads on', async () => {
    const many = Array.from({ length: 20 }, () => 'y'.repeat(100)).join(',');
    const header = Array.from({ length: 20 }, (_, i) => `c${i}`).join(',');
    const short = Array.from({ length: 20 }, (_, i) => String(i)).join(',');
    const { records, errors } = await readBytes(
      csvConnector,
      `${header}\n${short}\n${many}\n${short}\n`,
      { maxRecordBytes: 1000 },
      64,
    );
    expect(records.map((r) => r.source.line)).toEqual([2, 4]);
    expect(errors).toEqual([
      {
        file: 'input.test',
        line: 3,
        message:
          'the record is 2000 bytes, larger than maxRecordBytes (1000 bytes): it was not read ' +
          '(the csv option maxRecordBytes raises the limit)',
      },
    ]);
  });
});
