import { describe, expect, it } from 'vitest';
import { UnknownConnectorError } from '../../connectors/errors.js';
import {
  connectorForContent,
  connectorForMediaType,
  connectorForPath,
  getConnector,
  validateConnectorOptions,
} from '../../connectors/registry.js';
import { globToRegExp } from '../../connectors/sources/glob.js';
import { z } from 'zod';
import { defineConnector } from '../../connectors/define-connector.js';
import { ConfigError } from '../../src/errors/index.js';

/** The error `fn` throws (the test fails when it throws none). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, got none');
}

describe('connector registry', () => {
  it('finds connectors by name and lists the known ones for an unknown name', () => {
    expect(getConnector('xml').name).toBe('xml');
    const error = thrown(() => getConnector('parquet'));
    expect(error).toBeInstanceOf(UnknownConnectorError);
    expect(error).toMatchObject({ code: 'FERRY_CONNECTOR_UNKNOWN', exitCode: 2 });
    expect((error as Error).message).toBe(
      'Unknown connector "parquet": the connectors are csv, json, xml, xlsx.',
    );
  });

  it.each([
    ['exports/Items.CSV', 'csv'],
    ['a.tsv', 'csv'],
    ['feed.ndjson', 'json'],
    ['items.xml', 'xml'],
    ['book.xlsx', 'xlsx'],
    ['noext', undefined],
    ['file.parquet', undefined],
  ])('chooses by extension: %s -> %s', (path, name) => {
    expect(connectorForPath(path)?.name).toBe(name);
  });

  it('chooses by media type and by content', () => {
    expect(connectorForMediaType('text/csv')?.name).toBe('csv');
    expect(connectorForMediaType('application/atom+xml')?.name).toBe('xml');
    expect(connectorForMediaType('text/plain')).toBeUndefined();
    expect(connectorForContent(Buffer.from('PK\u0003\u0004...', 'latin1')).name).toBe('xlsx');
    expect(connectorForContent(Buffer.from('\uFEFF  <?xml version="1.0"?>')).name).toBe('xml');
    expect(connectorForContent(Buffer.from('\n[{"a":1}]')).name).toBe('json');
    expect(connectorForContent(Buffer.from('id;name\n')).name).toBe('csv');
  });
});

describe('validateConnectorOptions', () => {
  const connector = defineConnector({
    name: 'demo',
    description: 'a test connector',
    extensions: [],
    mediaTypes: [],
    options: z.strictObject({
      mode: z.enum(['a', 'b']).default('a').meta({ description: 'mode' }),
      size: z.int().min(1).max(10).default(5).meta({ description: 'size' }),
      strict: z.boolean().default(true).meta({ description: 'strict' }),
      name: z.string().min(1).meta({ description: 'the name' }),
      token: z.string().min(1).optional().meta({ description: 'a token', secret: true }),
    }),
    read: () => (async function* () {})(),
  });

  it('applies defaults and converts text values (as --option gives them)', () => {
    expect(
      validateConnectorOptions(connector, { name: 'x', size: '7', strict: 'false' }, ''),
    ).toEqual({
      mode: 'a',
      size: 7,
      strict: false,
      name: 'x',
    });
  });

  it('names every bad option by its path and says what was expected, never showing a secret', () => {
    const error = thrown(() =>
      validateConnectorOptions(
        connector,
        { mode: 'c', size: 11, strict: 'yes', token: '', colour: 'red' },
        'pipelines.catalog.source.options',
        'catalog.yaml',
      ),
    ) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    const p = 'pipelines.catalog.source.options';
    expect(error.issues).toEqual([
      {
        path: `${p}.colour`,
        message:
          'unknown option of the demo connector; its options are: mode, size, strict, name, token',
      },
      { path: `${p}.mode`, message: 'expected one of "a", "b", got "c"' },
      { path: `${p}.size`, message: 'expected an integer from 1 to 10, got 11' },
      { path: `${p}.strict`, message: 'expected true or false, got "yes"' },
      { path: `${p}.name`, message: 'required: the name' },
      { path: `${p}.token`, message: 'expected a non-empty string, got a secret value' },
    ]);
    expect(error.message).toMatch(/^Invalid configuration in catalog\.yaml:/);
  });
});

describe('file-name globs', () => {
  it.each([
    ['*.csv', 'items.csv', true],
    ['*.csv', 'items.csv.bak', false],
    ['items-????.csv', 'items-2026.csv', true],
    ['*.{csv,txt}', 'a.txt', true],
    ['[ab]*.csv', 'c.csv', false],
    ['[!ab]*.csv', 'c.csv', true],
    ['a+b(1).csv', 'a+b(1).csv', true],
  ])('%s matches %s: %s', (pattern, name, matches) => {
    expect(globToRegExp(pattern).test(name)).toBe(matches);
  });
});
