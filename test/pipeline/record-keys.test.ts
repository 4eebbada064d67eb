import { describe, expect, it } from 'vitest';
import { KeyRegistry, type MappedEntity } from '../../src/pipeline/mapping/key-registry.js';
import type { RowError } from '../../src/base/records.js';
import { definitionOf } from './helpers.js';
import { FULL, mapOne, payloadOf, productPipeline } from './mapping-helpers.js';

describe('keys across records', () => {
  it('rejects the later record that repeats an accepted key, and not the earlier one', () => {
    const def = productPipeline(FULL);
    const registry = new KeyRegistry(def.entities);
    expect(Array.isArray(mapOne(def, { 'No.': 'A', Name: 'first' }, registry, 2))).toBe(true);
    // A rejected record with key B does not make a later B a repeat.
    expect(mapOne(def, { 'No.': 'B', Name: '' }, registry, 3)).toHaveProperty('message');
    expect(Array.isArray(mapOne(def, { 'No.': 'B', Name: 'ok' }, registry, 4))).toBe(true);
    const repeat = mapOne(def, { 'No.': 'A', Name: 'again' }, registry, 9) as RowError;
    expect(repeat).toMatchObject({ line: 9, field: 'No.' });
    expect(repeat.message).toBe('No.: "A" repeats the key of the record on line 2');
  });

  it('rejects a key holding an invisible character naming the code point, or strips it', () => {
    const def = productPipeline(FULL);
    const registry = new KeyRegistry(def.entities);
    const error = mapOne(def, { 'No.': 'K\u200b1', Name: 'zero width' }, registry, 7) as RowError;
    expect(error).toMatchObject({ line: 7, field: 'No.' });
    expect(error.message).toContain(
      '"K\\u200B1" holds U+200B ZERO WIDTH SPACE at column 2, an invisible character',
    );
    const bidi = mapOne(def, { 'No.': 'K2\u202e', Name: 'bidi' }, registry, 8) as RowError;
    expect(bidi.message).toContain('U+202E RIGHT-TO-LEFT OVERRIDE at column 3');
    const stripping = definitionOf('t', {
      source: {},
      mode: 'snapshot',
      entities: [
        {
          operations: { upsert: 'categories.put' },
          key: 'Cat',
          invisibleInKey: 'strip',
          fields: { name: 'Name', sortIndex: { value: 1 } },
        },
      ],
    });
    const stripped = mapOne(
      stripping,
      { Cat: 'K\u200b1\ufeff', Name: 'x' },
      new KeyRegistry(stripping.entities),
    );
    expect(payloadOf(stripped)).toEqual({ externalId: 'K1', name: 'x', sortIndex: 1 });
  });

  it('gives a derived entity once per key, from the first record (duplicates: first)', () => {
    const def = definitionOf('t', {
      source: {},
      mode: 'snapshot',
      entities: [
        {
          operations: { upsert: 'categories.put' },
          key: 'Cat',
          duplicates: 'first',
          when: { column: 'Cat', notEmpty: true },
          fields: { name: 'CatName', sortIndex: { column: 'Sort', type: 'integer' } },
        },
      ],
    });
    const registry = new KeyRegistry(def.entities);
    const a = mapOne(def, { Cat: 'SKI', CatName: 'Ski', Sort: '1' }, registry);
    const b = mapOne(def, { Cat: 'SKI', CatName: 'Other', Sort: 'not a number' }, registry);
    const none = mapOne(def, { Cat: '', CatName: 'x', Sort: '1' }, registry);
    expect(payloadOf(a)).toEqual({ externalId: 'SKI', name: 'Ski', sortIndex: 1 });
    expect(b).toEqual([]);
    expect(none).toEqual([]);
  });

  it('groups rows with one key into one entity, merging fields as each field says', () => {
    const def = definitionOf('t', {
      source: {},
      mode: 'snapshot',
      entities: [
        {
          operations: { upsert: 'products.put' },
          key: 'Handle',
          duplicates: 'group',
          fields: {
            name: 'Title',
            vendor: { column: 'Vendor', default: '' },
            handle: 'Handle',
            active: { value: true },
            categoryExternalIds: { column: 'Tags', split: ',', merge: 'unique' },
            description: { column: 'Body', merge: 'last' },
          },
        },
      ],
    });
    const registry = new KeyRegistry(def.entities);
    expect(
      mapOne(def, { Handle: 'shoe', Title: 'Shoe', Tags: 'a,b', Body: 'v1' }, registry, 2),
    ).toEqual([]);
    expect(mapOne(def, { Handle: 'hat', Title: 'Hat', Tags: 'x' }, registry, 3)).toEqual([]);
    expect(
      mapOne(def, { Handle: 'shoe', Title: '', Tags: 'b,c', Body: 'v2' }, registry, 4),
    ).toEqual([]);
    const groups = [...registry.grouped()];
    expect(groups.map((g) => [g.key, g.lines])).toEqual([
      ['shoe', [2, 4]],
      ['hat', [3]],
    ]);
    expect(groups[0]?.payload).toEqual({
      categoryExternalIds: ['a', 'b', 'c'],
      description: 'v2',
      externalId: 'shoe',
      handle: 'shoe',
      name: 'Shoe',
      active: true,
      vendor: '',
    });
    expect(Object.keys(groups[0]?.payload ?? {})).toEqual(
      Object.keys(groups[0]?.payload ?? {}).sort(),
    );
  });

  it('accepts or rejects a record as a whole, and spares rejected keys from deletes', () => {
    const def = definitionOf('t', {
      source: {},
      mode: 'snapshot',
      entities: [
        {
          operations: { upsert: 'categories.put' },
          key: 'Cat',
          duplicates: 'first',
          fields: { name: 'Cat', sortIndex: { value: 0 } },
        },
        {
          operations: { upsert: 'products.put', delete: 'products.delete' },
          key: 'No.',
          fields: FULL,
        },
      ],
    });
    const registry = new KeyRegistry(def.entities);
    const rejected = mapOne(def, { Cat: 'NEW', 'No.': 'P1', Name: '' }, registry);
    expect(rejected).toHaveProperty('message');
    // The category of the rejected record was not given: a later record gives it.
    const later = mapOne(def, { Cat: 'NEW', 'No.': 'P2', Name: 'ok' }, registry) as MappedEntity[];
    expect(later.map((m) => m.entity.name)).toEqual(['categories', 'products']);
    expect(registry.present(def.entities[1]!, 'P1')).toBe(true);
    expect(registry.present(def.entities[1]!, 'P3')).toBe(false);
  });
});

describe('changes mode', () => {
  const def = definitionOf('t', {
    source: {},
    mode: 'changes',
    changeType: { column: 'Type', values: { U: 'upsert', D: 'delete' } },
    entities: [
      {
        name: 'price',
        operations: { upsert: 'products.prices.patch' },
        key: 'No.',
        fields: {
          prices: {
            array: [
              {
                object: {
                  amount: { column: 'Price', type: 'decimal', scale: 2, required: true },
                  currency: { value: 'NOK' },
                },
              },
            ],
          },
        },
      },
      { name: 'product', operations: { delete: 'products.delete' }, key: 'No.' },
    ],
  });

  it('gives each change type its entity and kind', () => {
    const u = mapOne(def, { Type: 'U', 'No.': '1', Price: '5' }) as MappedEntity[];
    expect(u.map((m) => [m.entity.name, m.kind])).toEqual([['price', 'upsert']]);
    const d = mapOne(def, { Type: 'D', 'No.': '1', Price: '' }) as MappedEntity[];
    expect(d.map((m) => [m.entity.name, m.kind, m.payload])).toEqual([
      ['product', 'delete', undefined],
    ]);
  });

  it('rejects an unknown change type, naming the values it takes', () => {
    expect(mapOne(def, { Type: 'X', 'No.': '1' })).toMatchObject({
      field: 'Type',
      message: 'Type: expected one of U, D, got "X"',
    });
  });
});
