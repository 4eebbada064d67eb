import { describe, expect, it } from 'vitest';
import {
  findTransform,
  registerTransform,
  transformNames,
  TransformRejection,
  type TransformContext,
} from '../../src/pipeline/transforms/index.js';
import { isFerryError } from '../../src/errors/index.js';

const run = (name: string, value: string): string | undefined =>
  findTransform(name)!.apply(value, { fields: {} });

describe('transforms', () => {
  it('has the built-in ones, by name', () => {
    expect(transformNames()).toEqual(
      expect.arrayContaining([
        'uppercase',
        'lowercase',
        'collapseSpaces',
        'digitsOnly',
        'stripHtml',
        'gtin',
      ]),
    );
    expect(run('uppercase', 'nok')).toBe('NOK');
    expect(run('collapseSpaces', 'a \n  b')).toBe('a b');
    expect(run('digitsOnly', '+47 66 93')).toBe('476693');
    expect(run('digitsOnly', 'none')).toBeUndefined();
    expect(run('stripHtml', '<p>Myk &amp; varm</p><br/>lue')).toBe('Myk & varm lue');
  });

  it('checks GTINs and keeps their leading zeros', () => {
    expect(run('gtin', '0012345678905')).toBe('0012345678905');
    expect(() => run('gtin', '0012345678904')).toThrow(TransformRejection);
    expect(() => run('gtin', '12345')).toThrow(/8, 12, 13 or 14 digits/);
  });

  it('reads the record only where declared: an undeclared read fails, naming the transform', () => {
    const fields = { Name: 'Lue', Vendor: 'Nordlys' };
    registerTransform('declaredRead', (v, { fields: f }) => `${v} ${f.Name}`);
    registerTransform('optedInRead', (v, ...rest) => `${v} ${rest[0]?.fields.Name}`, {
      readsRecord: true,
    });
    // Both take one declared parameter (a rest parameter does not count): neither says it reads.
    registerTransform('restRead', (v, ...rest) => `${v} ${rest[0]?.fields.Name}`);
    registerTransform('argumentsRead', function (this: unknown, v: string) {
      // eslint-disable-next-line prefer-rest-params
      return `${v} ${(arguments[1] as TransformContext).fields.Name}`;
    });
    expect(findTransform('declaredRead')?.readsRecord).toBe(true);
    expect(findTransform('declaredRead')?.apply('x', { fields })).toBe('x Lue');
    expect(findTransform('optedInRead')?.readsRecord).toBe(true);
    expect(findTransform('optedInRead')?.apply('x', { fields })).toBe('x Lue');
    expect(findTransform('uppercase')?.readsRecord).toBe(false);
    for (const name of ['restRead', 'argumentsRead']) {
      expect(findTransform(name)?.readsRecord).toBe(false);
      let thrown: unknown;
      try {
        findTransform(name)?.apply('x', { fields });
      } catch (error) {
        thrown = error;
      }
      expect(isFerryError(thrown) && thrown.code).toBe('FERRY_TRANSFORM_UNDECLARED_READ');
      expect((thrown as Error).message).toContain(`"${name}"`);
    }
  });

  it('refuses a second transform with a name already taken', () => {
    expect(() => registerTransform('uppercase', (v) => v)).toThrow(/already registered/);
  });
});
