import { describe, expect, it } from 'vitest';
import type { RowError } from '../../src/base/records.js';
import { configWith, definitionOf } from './helpers.js';
import { FULL, mapOne, payloadOf, productPipeline } from './mapping-helpers.js';

describe('field mapping', () => {
  const def = productPipeline(FULL);

  it('maps columns, constants, templates with slugs, negated booleans and split lists', () => {
    const p = payloadOf(
      mapOne(def, { 'No.': ' 007 ', Name: 'Lett støvler ', Blocked: 'Yes', Cats: 'A| B |' }),
    );
    expect(p).toEqual({
      externalId: '007',
      name: 'Lett støvler',
      vendor: 'ACME',
      handle: 'lett-stovler-007',
      active: false,
      categoryExternalIds: ['A', 'B'],
    });
    // Keys come out sorted, so the JSON of a payload is canonical.
    expect(Object.keys(p)).toEqual([...Object.keys(p)].sort());
  });

  it('uses the column when given, the default when empty, and leaves out what has no value', () => {
    const p = payloadOf(mapOne(def, { 'No.': '1', Name: 'X', Handle: 'given', Blocked: '' }));
    expect(p).toEqual({
      externalId: '1',
      name: 'X',
      vendor: 'ACME',
      handle: 'given',
      active: true,
      categoryExternalIds: [],
    });
    expect(p).not.toHaveProperty('description');
  });

  it('rejects a record naming the file, the line, the column and what was expected', () => {
    const err = mapOne(
      def,
      { 'No.': '1', Name: 'X', Blocked: 'perhaps' },
      undefined,
      17,
    ) as RowError;
    expect(err).toMatchObject({ file: 'test.csv', line: 17, field: 'Blocked' });
    expect(err.message).toContain('expected one of');
    expect(err.message).toContain('"perhaps"');
    const missing = mapOne(def, { 'No.': '1', Name: '  ' }) as RowError;
    expect(missing).toMatchObject({ field: 'Name', message: 'Name: required, but empty' });
    const noKey = mapOne(def, { 'No.': '', Name: 'X' }) as RowError;
    expect(noKey).toMatchObject({
      field: 'No.',
      message: 'No.: required (it is the key), but empty',
    });
  });

  it('keeps leading zeros and text as text, and trims unless told not to', () => {
    const d = productPipeline({ ...FULL, gtin: 'GTIN', description: { column: 'D', trim: false } });
    const p = payloadOf(mapOne(d, { 'No.': '000123', Name: 'X', GTIN: '0045469962919', D: ' a ' }));
    expect(p).toMatchObject({ externalId: '000123', gtin: '0045469962919', description: ' a ' });
  });

  it('applies lookup tables (named or inline), transforms and checks', () => {
    const d = definitionOf('t', {
      source: {},
      mode: 'snapshot',
      lookups: { roles: { Boss: 'admin', Till: 'cashier' } },
      entities: [
        {
          operations: { upsert: 'users.put' },
          key: 'No.',
          fields: {
            firstName: { column: 'First', transform: ['collapseSpaces', 'uppercase'] },
            lastName: { column: 'Last', lookup: { x: 'Xavier' }, lookupMissing: 'keep' },
            email: { column: 'Mail', check: { email: true } },
            role: { column: 'Role', lookup: 'roles' },
            storeExternalIds: { array: [{ column: 'Store' }] },
            active: { value: true },
          },
        },
      ],
    });
    const ok = payloadOf(
      mapOne(d, {
        'No.': 'E1',
        First: 'ola  jon',
        Last: 'x',
        Mail: 'o@x.no',
        Role: 'Boss',
        Store: '',
      }),
    );
    expect(ok).toEqual({
      externalId: 'E1',
      firstName: 'OLA JON',
      lastName: 'Xavier',
      email: 'o@x.no',
      role: 'admin',
      storeExternalIds: [],
      active: true,
    });
    const badRole = mapOne(d, { 'No.': 'E2', First: 'a', Last: 'b', Mail: 'o@x.no', Role: 'CEO' });
    expect(badRole).toMatchObject({
      field: 'Role',
      message: 'Role: expected one of Boss, Till, got "CEO"',
    });
    const badMail = mapOne(d, { 'No.': 'E3', First: 'a', Last: 'b', Mail: 'nope', Role: 'Till' });
    expect(badMail).toMatchObject({ field: 'Mail' });
  });

  it('rejects a record when a transform refuses its value', () => {
    const d = productPipeline({ ...FULL, gtin: { column: 'GTIN', transform: 'gtin' } });
    expect(payloadOf(mapOne(d, { 'No.': '1', Name: 'X', GTIN: '0012345678905' }))).toMatchObject({
      gtin: '0012345678905',
    });
    expect(mapOne(d, { 'No.': '1', Name: 'X', GTIN: '0012345678904' })).toMatchObject({
      field: 'GTIN',
      message: 'GTIN: "0012345678904" is not a GTIN (its check digit is wrong)',
    });
  });

  it('puts the key in the field the binding names', () => {
    const d = definitionOf(
      't',
      {
        source: {},
        mode: 'snapshot',
        entities: [{ operations: { upsert: 'products.put' }, key: 'No.', fields: FULL }],
      },
      configWith({ interface: { bindings: { 'products.put': { keyField: 'sku' } } } }),
    );
    const p = payloadOf(mapOne(d, { 'No.': '5', Name: 'X' }));
    expect(p).toMatchObject({ sku: '5', name: 'X' });
    expect(p).not.toHaveProperty('externalId');
    expect(Object.keys(p)).toEqual([...Object.keys(p)].sort());
  });

  it('checks payloads against the resource schema and names the payload field', () => {
    const d = productPipeline({ name: 'Name', handle: { value: 'h' }, active: { value: true } });
    const err = mapOne(d, { 'No.': '1', Name: 'X' }) as RowError;
    expect(err.field).toBe('vendor');
    expect(err.message).toContain('required by the products schema');
  });

  it('builds nested objects and arrays (a price list)', () => {
    const d = definitionOf('t', {
      source: {},
      mode: 'snapshot',
      entities: [
        {
          operations: { upsert: 'products.prices.patch' },
          key: 'No.',
          fields: {
            prices: {
              array: [
                {
                  object: {
                    amount: {
                      column: 'Price',
                      type: 'decimal',
                      decimalSeparator: ',',
                      scale: 2,
                      required: true,
                    },
                    currency: { column: 'Cur', default: 'NOK' },
                  },
                },
              ],
            },
          },
        },
      ],
    });
    expect(payloadOf(mapOne(d, { 'No.': '9', Price: '1 299,5', Cur: '' }))).toEqual({
      prices: [{ amount: '1299.50', currency: 'NOK' }],
    });
    expect(mapOne(d, { 'No.': '9', Price: '12,34,56' })).toMatchObject({ field: 'Price' });
  });

  it('converts dates and integers, and checks ranges', () => {
    const d = definitionOf('t', {
      source: {},
      mode: 'snapshot',
      entities: [
        {
          operations: { upsert: 'campaigns.put' },
          key: 'Id',
          fields: {
            name: 'Name',
            adjustmentType: { value: 'percent' },
            value: { column: 'Value', type: 'decimal', check: { min: '0', max: '100' } },
            startsAt: { column: 'From', type: 'date', formats: ['dd.mm.yyyy'] },
          },
        },
      ],
    });
    expect(
      payloadOf(mapOne(d, { Id: 'C1', Name: 'Sale', Value: '12.5', From: '01.03.2026' })),
    ).toEqual({
      externalId: 'C1',
      name: 'Sale',
      adjustmentType: 'percent',
      value: '12.5',
      startsAt: '2026-03-01',
    });
    expect(mapOne(d, { Id: 'C2', Name: 'Sale', Value: '120', From: '' })).toMatchObject({
      field: 'Value',
      message: 'Value: expected at most 100, got "120"',
    });
    expect(mapOne(d, { Id: 'C3', Name: 'Sale', Value: '1', From: '31.02.2026' })).toMatchObject({
      field: 'From',
    });
  });
});
