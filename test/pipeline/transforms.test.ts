import { describe, expect, it } from 'vitest';
import {
  findTransform,
  registerTransform,
  transformNames,
  TransformRejection,
} from '../../src/pipeline/transforms/index.js';

const run = (name: string, value: string): string | undefined =>
  findTransform(name)!(value, { fields: {} });

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

  it('refuses a second transform with a name already taken', () => {
    expect(() => registerTransform('uppercase', (v) => v)).toThrow(/already registered/);
  });
});
