import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../../connectors/errors.js';
import { xmlConnector } from '../../connectors/xml/index.js';
import { ConfigError } from '../../src/errors/index.js';
import { lines, readBytes } from './helpers/read.js';

const EXPORT = `<?xml version="1.0" encoding="UTF-8"?>
<erp:Export xmlns:erp="urn:erp">
  <erp:Item No="10000" blocked="No">
    <Description>Tynn voks &amp; smøring</Description>
    <Price currency="NOK">324.07</Price>
    <Category><Code>SKI</Code><Name><![CDATA[Ski & <staver>]]></Name></Category>
    <Tag>a</Tag><Tag>b</Tag>
    <Empty/>
  </erp:Item>
  <erp:Item No="10001"><Description>Lett
  lue</Description></erp:Item>
  <erp:Item No="10002">loose text</erp:Item>
</erp:Export>
`;

describe('xml connector', () => {
  it('reads each record element: attributes, child texts by path, repeats numbered; lines of start tags', async () => {
    const { records, errors, meta } = await readBytes(xmlConnector, EXPORT, {
      recordElement: 'Item',
    });
    expect(errors).toEqual([]);
    expect(meta).toMatchObject({ encoding: 'utf-8', recordElement: 'Item' });
    expect(lines(records)).toEqual([
      [
        3,
        {
          '@No': '10000',
          '@blocked': 'No',
          Description: 'Tynn voks & smøring',
          Price: '324.07',
          'Price@currency': 'NOK',
          'Category.Code': 'SKI',
          'Category.Name': 'Ski & <staver>',
          Tag: 'a',
          'Tag[2]': 'b',
          Empty: '',
        },
      ],
      [10, { '@No': '10001', Description: 'Lett\n  lue' }],
      [12, { '@No': '10002', '#text': 'loose text' }],
    ]);
  });

  it('gives the same records when the text arrives in small chunks', async () => {
    const whole = await readBytes(xmlConnector, EXPORT, { recordElement: 'Item' });
    const small = await readBytes(xmlConnector, EXPORT, { recordElement: 'Item' }, 3);
    expect(lines(small.records)).toEqual(lines(whole.records));
  });

  it('decodes the encoding the XML declaration names (ISO-8859-1: æ, ø, å)', async () => {
    const bytes = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?>\n<R><I><N>Blåbær på Røst</N></I></R>',
      'latin1',
    );
    const { records, meta } = await readBytes(xmlConnector, bytes, { recordElement: 'I' });
    expect(meta).toMatchObject({ encoding: 'windows-1252', encodingSource: 'declared' });
    expect(records[0]!.fields.N).toBe('Blåbær på Røst');
  });

  it('makes a record whose text is over maxFieldBytes an error item, and reads on', async () => {
    const text = `<R><I><N>${'x'.repeat(50)}</N></I>\n<I><N>ok</N></I></R>`;
    const { records, errors } = await readBytes(xmlConnector, text, {
      recordElement: 'I',
      maxFieldBytes: 20,
    });
    expect(records.map((r) => r.fields.N)).toEqual(['ok']);
    expect(errors).toEqual([
      expect.objectContaining({
        line: 1,
        field: 'N',
        message: expect.stringMatching(/maxFieldBytes/),
      }),
    ]);
  });

  it('reads a text that never ends in pieces, and refuses the truncated file at its end', async () => {
    const text = `<R><I><N>${'x'.repeat(300_000)}`;
    await expect(
      readBytes(xmlConnector, text, { recordElement: 'I', maxFieldBytes: 100_000 }),
    ).rejects.toThrow(/is not well-formed XML \(line 1\): .*unclosed tag/);
  });

  it('rejects the record of an attribute value over maxFieldBytes, naming its size, and reads on', async () => {
    const long = 'x'.repeat(300_000);
    const text = `<R>\n<I a="${long}"><N>1</N></I>\n<I><N b="${long.slice(0, 2000)}">2</N></I>\n<I><N>3</N></I>\n</R>`;
    const { records, errors } = await readBytes(xmlConnector, text, {
      recordElement: 'I',
      maxFieldBytes: 1000,
    });
    expect(records.map((r) => r.fields.N)).toEqual(['3']);
    expect(errors).toEqual([
      {
        file: 'input.test',
        line: 2,
        field: '@a',
        message:
          'the attribute a of <I> is 300000 bytes, larger than maxFieldBytes (1000 bytes): it was not read (the xml option maxFieldBytes raises the limit)',
      },
      {
        file: 'input.test',
        line: 3,
        field: 'N@b',
        message: expect.stringContaining('the attribute b of <N> is 2000 bytes'),
      },
    ]);
  });

  it('rejects a record whose fields add up to more than maxRecordBytes, naming its size, and reads on', async () => {
    const many = Array.from({ length: 500 }, (_, i) => `<F${i}>value ${i}</F${i}>`).join('');
    const text = `<R>\n<I><N>1</N></I>\n<I><N>2</N>${many}</I>\n<I><N>3</N></I>\n</R>`;
    const { records, errors } = await readBytes(xmlConnector, text, {
      recordElement: 'I',
      maxRecordBytes: 1000,
    });
    const size = 2 + Array.from({ length: 500 }, (_, i) => `F${i}value ${i}`).join('').length;
    expect(records.map((r) => r.fields.N)).toEqual(['1', '3']);
    expect(errors).toEqual([
      {
        file: 'input.test',
        line: 3,
        message: `the record is ${size} bytes, larger than maxRecordBytes (1000 bytes): it was not read (the xml option maxRecordBytes raises the limit)`,
      },
    ]);
  });

  it('stops on a tag name that never ends instead of buffering it', async () => {
    const text = `<R><I><N${'x'.repeat(300_000)}`;
    await expect(
      readBytes(xmlConnector, text, { recordElement: 'I', maxFieldBytes: 100_000 }),
    ).rejects.toThrow(/larger than maxFieldBytes \(100000\): reading stopped/);
  });

  it('requires the recordElement option', async () => {
    const error = await readBytes(xmlConnector, '<R/>').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues).toEqual([
      { path: 'options.recordElement', message: expect.stringMatching(/^required/) },
    ]);
  });

  it('names the elements it found when there is no record element', async () => {
    await expect(
      readBytes(xmlConnector, '<Export><Product/><Product/><Meta/></Export>', {
        recordElement: 'Item',
      }),
    ).rejects.toThrow(
      /has no <Item> element; the root element holds <Product>, <Meta>: set the recordElement option/,
    );
  });

  it.each([
    ['CSV', 'No.;Description\n1;x\n', /input\.test is not XML: it starts with "N"/],
    ['JSON', '[{"a": 1}]', /input\.test is not XML: it starts with "\["/],
    [
      'a truncated file',
      '<R><I><N>1</N></I><I><N>2',
      /input\.test is not well-formed XML \(line 1\)/,
    ],
    ['a bad tag', '<R>\n<I><N>1</M></I></R>', /input\.test is not well-formed XML \(line 2\)/],
  ])(
    'refuses %s with a FERRY_CONNECTOR error naming the file and line',
    async (_kind, text, message) => {
      const error = await readBytes(xmlConnector, text, { recordElement: 'I' }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as Error).message).toMatch(message);
    },
  );
});
