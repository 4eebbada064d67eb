import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import {
  OperationNotInListingError,
  UnknownOperationError,
} from '../../src/interface/operation-errors.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { configWith, definitionOf, tempDir, testConfig } from './helpers.js';

const product = (fields: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  source: { connector: 'csv' },
  mode: 'snapshot',
  entities: [{ operations: { upsert: 'products.put' }, key: 'No.', fields, ...more }],
});

function issuesOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loading pipelines', () => {
  it.each(['catalog', 'stores', 'users', 'item-changes'])(
    'loads the sample pipeline %s under listing A and B',
    (name) => {
      for (const listing of ['A', 'B']) {
        const def = loadPipeline(name, configWith({ interface: { listing } }));
        expect(def.name).toBe(name);
        expect(def.source.file).toBe(`examples/${name === 'catalog' ? 'items' : name}.csv`);
      }
    },
  );

  it('orders the catalog stages: categories, products, prices, then deletes', () => {
    expect(loadPipeline('catalog', testConfig).stages).toEqual([
      ['categories.put'],
      ['products.put'],
      ['products.prices.patch'],
      ['products.delete'],
    ]);
  });

  it('names an unknown pipeline, and the ones there are', () => {
    expect(() => loadPipeline('nope', testConfig)).toThrow(/no such pipeline.*catalog/s);
    expect(() => loadPipeline('../etc/passwd', testConfig)).toThrow(ConfigError);
  });

  it('reports YAML and schema problems with the file and the dotted path of the key', () => {
    const dir = tempDir();
    try {
      dir.file(
        'broken.yaml',
        'mode: snapshot\nsource: {}\nentities:\n  - key: No.\n    operations: { upsert: products.put }\n    fields:\n      name: { column: Name, typo: 1, type: money }\n',
      );
      dir.file('syntax.yaml', 'mode: [snapshot\n');
      const config = configWith({ pipelines: { dir: dir.path } });
      const error = (() => {
        try {
          loadPipeline('broken', config);
        } catch (e) {
          return e as ConfigError;
        }
        throw new Error('no error');
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error.exitCode).toBe(2);
      expect(error.message).toContain('broken.yaml');
      expect(error.issues.map((i) => i.path)).toEqual(
        expect.arrayContaining(['entities.0.fields.name.typo', 'entities.0.fields.name.type']),
      );
      expect(() => loadPipeline('syntax', config)).toThrow(
        /syntax\.yaml[\s\S]*line \d+, column \d+/,
      );
    } finally {
      dir.remove();
    }
  });

  it('finds mistakes of meaning before any record is read', () => {
    const issues = issuesOf(() =>
      definitionOf(
        't',
        product({
          name: { column: 'Name', transform: 'shout' },
          colour: 'Colour',
          handle: { column: 'H', lookup: 'missing' },
          vendor: { column: 'V', check: { pattern: '([' } },
          active: { column: 'A', type: 'date', formats: ['dd.mm.yyyy q'] },
          externalId: 'No.',
          description: { object: { a: 'A' }, type: 'integer' },
        }),
      ),
    );
    const byPath = Object.fromEntries(issues.map((i) => [i.path, i.message]));
    expect(byPath['entities.0.fields.name.transform']).toBe('no transform named "shout"');
    expect(byPath['entities.0.fields.colour']).toMatch(
      /not a field of products \(fields: externalId, name/,
    );
    expect(byPath['entities.0.fields.handle.lookup']).toBe('no lookup table "missing"');
    expect(byPath['entities.0.fields.vendor.check']).toMatch(/Invalid regular expression/);
    expect(byPath['entities.0.fields.active.formats']).toMatch(/unknown token/);
    expect(byPath['entities.0.fields.externalId']).toMatch(/is the entity's key/);
    expect(byPath['entities.0.fields.description.type']).toMatch(/only a column or template/);
  });

  it('checks modes, operations and stages', () => {
    expect(() =>
      definitionOf('t', {
        source: {},
        mode: 'changes',
        entities: [{ operations: { upsert: 'products.put' }, key: 'k' }],
      }),
    ).toThrow(/changes mode needs changeType/);
    expect(
      issuesOf(() => definitionOf('t', { ...product({}), deletes: { enabled: true } })),
    ).toContainEqual({
      path: 'deletes.enabled',
      message: 'no entity has a delete operation (operations.delete)',
    });
    expect(
      issuesOf(() =>
        definitionOf('t', {
          ...product({}),
          entities: [{ operations: { upsert: 'products.delete' }, key: 'k' }],
        }),
      ),
    ).toContainEqual(expect.objectContaining({ path: 'entities.0.operations.upsert' }));
    expect(
      issuesOf(() =>
        definitionOf('t', { ...product({}), stages: [['products.put'], 'users.put'] }),
      ),
    ).toContainEqual({
      path: 'stages.1',
      message: 'users.put is not an operation of the entities',
    });
  });

  it('fails by name when an operation is unknown or not in the configured listing', () => {
    const signup = {
      source: {},
      mode: 'snapshot',
      entities: [{ operations: { upsert: 'partner.signup.post' }, key: 'k' }],
    };
    let error: unknown;
    try {
      definitionOf('t', signup, configWith({ interface: { listing: 'A' } }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(OperationNotInListingError);
    expect((error as Error).message).toContain('partner.signup.post');
    expect(() =>
      definitionOf('t', {
        ...signup,
        entities: [{ operations: { upsert: 'products.upsert' }, key: 'k' }],
      }),
    ).toThrow(UnknownOperationError);
  });

  it("checks the connector's options by path", () => {
    const issues = issuesOf(() =>
      definitionOf('t', {
        ...product({}),
        source: { connector: 'csv', options: { delimiter: ';', bogus: 1 } },
      }),
    );
    expect(issues.map((i) => i.path)).toContain('source.options.bogus');
    expect(
      issuesOf(() => definitionOf('t', { ...product({}), source: { connector: 'parquet' } })),
    ).toContainEqual(
      expect.objectContaining({
        path: 'source.connector',
        message: expect.stringContaining('parquet'),
      }),
    );
  });
});
