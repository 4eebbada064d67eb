import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../connectors/errors.js';
import { jsonConnector } from '../../connectors/json/index.js';
import { chunked, lines, readBytes } from './helpers/read.js';

const ARRAY = `[
  {"id": "A1", "price": 1299.10, "big": 12345678901234567890, "neg": -0.5e3},
  {
    "id": "A2",
    "active": true, "gone": false, "note": null,
    "address": {"city": "Oslo", "zip": "0150"},
    "tags": ["a", "b"], "empty": {}, "text": "brace } and \\" quote, ] bracket"
  }
]
`;

describe('json connector: arrays', () => {
  it('reads each object with the line it starts on; numbers keep their exact text', async () => {
    const { records, errors, meta } = await readBytes(jsonConnector, ARRAY);
    expect(errors).toEqual([]);
    expect(meta).toMatchObject({ format: 'array', encoding: 'utf-8' });
    expect(lines(records)).toEqual([
      [2, { id: 'A1', price: '1299.10', big: '12345678901234567890', neg: '-0.5e3' }],
      [
        3,
        {
          id: 'A2',
          active: 'true',
          gone: 'false',
          note: '',
          'address.city': 'Oslo',
          'address.zip': '0150',
          'tags.0': 'a',
          'tags.1': 'b',
          text: 'brace } and " quote, ] bracket',
        },
      ],
    ]);
  });

  it('gives the same records when the bytes after the sniffed head arrive one at a time', async () => {
    const padded = `${' '.repeat(70_000)}${ARRAY}`; // fills the 64 KiB head with white space
    const whole = await readBytes(jsonConnector, ARRAY);
    const bytewise = await readBytes(jsonConnector, padded, {}, 1);
    expect(lines(bytewise.records)).toEqual(lines(whole.records));
  });

  it('gives error items for elements that are not objects or not valid, and reads on', async () => {
    const { records, errors } = await readBytes(
      jsonConnector,
      '[{"a":"1"},\n"text",\n{"a": 01},\n{"a": tru},\n[1],\n{"a":"2"}]',
    );
    expect(records.map((r) => r.fields.a)).toEqual(['1', '2']);
    expect(errors.map((e) => [e.line, e.message])).toEqual([
      [2, 'expected a JSON object, found a string'],
      [3, expect.stringMatching(/"01" is not a valid JSON number/)],
      [4, expect.stringMatching(/not valid JSON/)],
      [5, 'expected a JSON object, found an array'],
    ]);
  });

  it('stops with a clear error on a truncated array, after the records before it', async () => {
    const items: unknown[] = [];
    const meta = {};
    const read = jsonConnector.reader({}, '')(
      { stream: chunked('[{"a":"1"},\n{"a":"2"'), name: 'cut.json' },
      meta,
    );
    const error = await (async () => {
      for await (const item of read) items.push(item);
    })().catch((e: unknown) => e);
    expect(items).toHaveLength(1);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as Error).message).toMatch(/cut\.json: the JSON array is not closed .*truncated/);
  });

  it('refuses a missing comma and text after the array', async () => {
    await expect(readBytes(jsonConnector, '[{"a":"1"} {"a":"2"}]')).rejects.toThrow(
      /line 1 has "\{" where a comma or \] after the record/,
    );
    await expect(readBytes(jsonConnector, '[{"a":"1"}] x')).rejects.toThrow(
      /nothing after the array/,
    );
  });

  it('refuses a record over maxRecordBytes as an error item and reads on', async () => {
    const big = `{"a":"${'x'.repeat(200)}"}`;
    const { records, errors } = await readBytes(
      jsonConnector,
      `[${big},\n{"a":"small"}]`,
      { maxRecordBytes: 100 },
      16,
    );
    expect(records.map((r) => r.fields.a)).toEqual(['small']);
    expect(errors).toEqual([
      expect.objectContaining({
        line: 1,
        message: expect.stringMatching(/larger than maxRecordBytes \(100 bytes\)/),
      }),
    ]);
  });
});

describe('json connector: NDJSON', () => {
  it('reads one object per line, skipping blank lines; a bad line is an error item', async () => {
    const text = '{"id":"1","n":2.50}\r\n\n{"id":"2","n":3}\n{"id":\n{"id":"4"}';
    const { records, errors, meta } = await readBytes(jsonConnector, text);
    expect(meta.format).toBe('ndjson');
    expect(lines(records)).toEqual([
      [1, { id: '1', n: '2.50' }],
      [3, { id: '2', n: '3' }],
      [5, { id: '4' }],
    ]);
    expect(errors.map((e) => e.line)).toEqual([4]);
  });

  it('refuses a line over maxRecordBytes without holding it, and reads on', async () => {
    const text = `{"a":"${'z'.repeat(500)}"}\n{"a":"ok"}\n`;
    const { records, errors } = await readBytes(jsonConnector, text, { maxRecordBytes: 64 }, 10);
    expect(records.map((r) => r.fields.a)).toEqual(['ok']);
    expect(errors.map((e) => e.line)).toEqual([1]);
  });
});

describe('json connector: input that is not what the options say', () => {
  it('refuses XML, CSV and a format that the option contradicts', async () => {
    await expect(readBytes(jsonConnector, '<Items/>')).rejects.toThrow(
      /starts with "<".*read it with the xml connector/,
    );
    await expect(readBytes(jsonConnector, 'id,name\n1,x\n')).rejects.toThrow(
      /starts with "i": expected a JSON array/,
    );
    await expect(readBytes(jsonConnector, '{"a":"1"}\n', { format: 'array' })).rejects.toThrow(
      /format option says array/,
    );
  });

  it('reads an empty input as no records', async () => {
    const { records, errors } = await readBytes(jsonConnector, '  \n');
    expect([records, errors]).toEqual([[], []]);
  });
});
