/** base/exact-json: numbers a double cannot carry survive a parse and a write, byte for byte. */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/base/canonical-json.js';
import { ExactNumber, parseExact, stringifyExact } from '../../src/base/exact-json.js';

describe('exact JSON', () => {
  it('keeps the digits a double would lose, and leaves the rest plain numbers', () => {
    const text =
      '[{"a":12345678901234567890.12,"b":10.5,"c":"x\\u0000y","d":[-9007199254740993,1e400]}]';
    const value = parseExact(text) as [{ a: unknown; b: unknown; d: unknown[] }];
    expect(value[0].a).toEqual(new ExactNumber('12345678901234567890.12'));
    expect(value[0].b).toBe(10.5);
    expect(value[0].d).toEqual([new ExactNumber('-9007199254740993'), new ExactNumber('1e400')]);
    expect(stringifyExact(value)).toBe(text);
    expect(canonicalJson(value[0].a)).toBe('12345678901234567890.12');
  });

  it('parses what JSON.parse parses when no number needs it, strings with digits untouched', () => {
    const text = '{"k":"12345678901234567890","n":[1,2.5,-0.07],"t":true,"z":null}';
    expect(parseExact(text)).toEqual(JSON.parse(text));
    expect(stringifyExact(parseExact(text))).toBe(text);
  });

  it('refuses what is not a JSON number, as JSON.parse does', () => {
    for (const bad of ['[1.2.3]', '[01234567890123456789]', '[12345678901234567890.]', '[-]']) {
      expect(() => parseExact(bad), bad).toThrow(SyntaxError);
    }
  });
});
