import { describe, expect, it } from 'vitest';
import { booleanWords, parseBoolean } from '../../src/pipeline/convert/boolean.js';
import { compileChecks } from '../../src/pipeline/convert/checks.js';
import { compileDateFormat, parseDate } from '../../src/pipeline/convert/date.js';
import { compareDecimals } from '../../src/base/decimal-digits.js';
import { defaultGroups, parseDecimal } from '../../src/pipeline/convert/decimal.js';
import { parseInteger } from '../../src/pipeline/convert/integer.js';
import { slugify } from '../../src/pipeline/convert/slug.js';

const comma = { separator: ',' as const, groups: defaultGroups(','), scale: 2 };

describe('decimal', () => {
  it.each([
    ['2 099,73', '2099.73'],
    ['2\u00a0099,73', '2099.73'],
    ['2\u202f099,73', '2099.73'],
    ['4.588,75', '4588.75'],
    ['1.417,00', '1417.00'],
    ['1273', '1273.00'],
    ['324,07', '324.07'],
    ['846,5', '846.50'],
    ['-12,50', '-12.50'],
    ['\u221212,5', '-12.50'],
    ['+3', '3.00'],
    ['007', '7.00'],
    ['-0,00', '0.00'],
    ['1 234 567,891', undefined],
    ['12,3400', '12.34'],
  ])('reads %j with decimal comma as %j', (raw, want) => {
    const r = parseDecimal(raw, comma);
    if (want === undefined) expect(r).toHaveProperty('error');
    else expect(r).toEqual({ value: want });
  });

  it.each([
    '12,34,56',
    '',
    'abc',
    '1 23,00',
    '12.5',
    '1,2.3',
    ',50',
    '12,',
    '1  234',
    '--1',
    '1e3',
  ])('refuses %j with a message that shows the value', (raw) => {
    const r = parseDecimal(raw, comma);
    expect(r).toHaveProperty('error');
    expect((r as { error: string }).error).toContain(`"${raw}"`);
  });

  it('says how many decimals it takes', () => {
    expect(parseDecimal('1,239', comma)).toEqual({
      error: 'expected at most 2 decimals, got "1,239"',
    });
  });

  it('rounds to the scale exactly when asked, half-up or half-even', () => {
    const up = { ...comma, round: 'half-up' as const };
    const even = { ...comma, round: 'half-even' as const };
    expect(parseDecimal('12,345', up)).toEqual({ value: '12.35' });
    expect(parseDecimal('12,345', even)).toEqual({ value: '12.34' });
    expect(parseDecimal('12,355', even)).toEqual({ value: '12.36' });
    expect(parseDecimal('-0,005', up)).toEqual({ value: '-0.01' });
    expect(parseDecimal('-0,004', up)).toEqual({ value: '0.00' });
    expect(parseDecimal('9 999,999', up)).toEqual({ value: '10000.00' });
    expect(parseDecimal('0,99999999999999999999', up)).toEqual({ value: '1.00' });
    expect(parseDecimal('7,5', { ...up, scale: 0 })).toEqual({ value: '8' });
  });

  it('reads a decimal point with comma grouping, and keeps the scale it was given without one', () => {
    const dot = { separator: '.' as const, groups: defaultGroups('.') };
    expect(parseDecimal('1,299.5', dot)).toEqual({ value: '1299.5' });
    expect(parseDecimal('0.125', dot)).toEqual({ value: '0.125' });
    expect(parseDecimal('1.299,5', dot)).toHaveProperty('error');
  });

  it('never goes through a float', () => {
    expect(parseDecimal('90071992547409931,99', comma)).toEqual({ value: '90071992547409931.99' });
  });

  it('compares decimal strings exactly', () => {
    expect(compareDecimals('10.5', '10.50')).toBe(0);
    expect(compareDecimals('-1', '0.01')).toBe(-1);
    expect(compareDecimals('90071992547409931.99', '90071992547409931.98')).toBe(1);
  });
});

describe('integer', () => {
  it('reads whole numbers, grouped or signed', () => {
    expect(parseInteger('30')).toEqual({ value: 30 });
    expect(parseInteger('-4')).toEqual({ value: -4 });
    expect(parseInteger('1 000')).toEqual({ value: 1000 });
    expect(parseInteger('-0')).toEqual({ value: 0 });
  });
  it.each(['3.5', '1 00', 'x', '99999999999999999999'])('refuses %j', (raw) => {
    expect(parseInteger(raw)).toHaveProperty('error');
  });
});

describe('boolean', () => {
  const words = booleanWords();
  it.each([
    ['Yes', true],
    ['no', false],
    ['JA', true],
    ['Nei', false],
    ['true', true],
    ['FALSE', false],
    ['1', true],
    ['0', false],
  ])('reads %j as %j', (raw, want) => {
    expect(parseBoolean(raw, words)).toEqual({ value: want });
  });
  it('refuses other words and lists the ones it takes', () => {
    const r = parseBoolean('maybe', words);
    expect((r as { error: string }).error).toMatch(/yes.*nei.*"maybe"/);
  });
  it('takes the words a pipeline gives', () => {
    const custom = booleanWords(['Y'], ['N']);
    expect(parseBoolean('y', custom)).toEqual({ value: true });
    expect(parseBoolean('yes', custom)).toHaveProperty('error');
  });
});

describe('date', () => {
  const formats = ['dd.mm.yyyy', 'yyyy-mm-dd'].map(compileDateFormat);
  it('reads the given formats into ISO 8601', () => {
    expect(parseDate('14.02.2026', formats)).toEqual({ value: '2026-02-14' });
    expect(parseDate('2026-07-10', formats)).toEqual({ value: '2026-07-10' });
    expect(parseDate('29.02.2024', formats)).toEqual({ value: '2024-02-29' });
  });
  it('reads a time of day when the format has one', () => {
    const withTime = [compileDateFormat('dd.mm.yyyy hh:mm')];
    expect(parseDate('01.03.2026 09:05', withTime)).toEqual({ value: '2026-03-01T09:05:00' });
  });
  it('refuses dates that do not exist or do not match', () => {
    expect(parseDate('29.02.2026', formats)).toEqual({
      error: '"29.02.2026" is not a real date (format dd.mm.yyyy)',
    });
    expect(parseDate('31.04.2026', formats)).toHaveProperty('error');
    expect((parseDate('2026/01/01', formats) as { error: string }).error).toContain(
      'dd.mm.yyyy or yyyy-mm-dd',
    );
  });
  it('refuses a format without year, month and day, or with unknown letters', () => {
    expect(() => compileDateFormat('mm.yyyy')).toThrow(/needs a year/);
    expect(() => compileDateFormat('dd.mm.yyyy q')).toThrow(/unknown token/);
  });
});

describe('slug', () => {
  it.each([
    ['Lett støvler 10002', 'lett-stovler-10002'],
    ['Vanntett jakke, herre 10032', 'vanntett-jakke-herre-10032'],
    ['Blåbær Æble', 'blabaer-aeble'],
    ['Ærlig Øst Ås', 'aerlig-ost-as'],
    ['Crème brûlée — "12" modell', 'creme-brulee-12-modell'],
    ['Straße', 'strasse'],
    ['  --  ', ''],
  ])('%j -> %j', (text, want) => {
    expect(slugify(text)).toBe(want);
  });
});

describe('checks', () => {
  const run = (
    checks: Parameters<typeof compileChecks>[0],
    value: unknown,
  ): (string | undefined)[] => compileChecks(checks).map((c) => c(value));

  it('email', () => {
    expect(run({ email: true }, 'a.b@example.no')).toEqual([undefined]);
    expect(run({ email: true }, 'not-an-email')[0]).toMatch(/e-mail address/);
    expect(run({ email: true }, 'a@b')[0]).toMatch(/e-mail address/);
  });
  it('enum', () => {
    expect(run({ enum: ['admin', 'cashier'] }, 'admin')).toEqual([undefined]);
    expect(run({ enum: ['admin', 'cashier'] }, 'root')[0]).toBe(
      'expected one of admin, cashier, got "root"',
    );
  });
  it('pattern', () => {
    expect(run({ pattern: '^[A-Z]{3}$' }, 'NOK')).toEqual([undefined]);
    expect(run({ pattern: '^[A-Z]{3}$' }, 'nok')[0]).toMatch(/match/);
  });
  it('range on numbers and on decimal strings, exactly', () => {
    expect(run({ min: 0, max: 120 }, 121)).toEqual([undefined, 'expected at most 120, got "121"']);
    expect(run({ min: '0.00' }, '-0.01')[0]).toMatch(/at least/);
    expect(run({ min: '0.00' }, '0.00')).toEqual([undefined]);
    expect(run({ min: 1 }, 'abc')[0]).toMatch(/at least/);
  });
  it('length', () => {
    expect(run({ minLength: 2, maxLength: 3 }, 'abcd')).toEqual([
      undefined,
      'expected at most 3 characters, got "abcd"',
    ]);
  });
});
