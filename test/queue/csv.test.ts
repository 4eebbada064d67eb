import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from '../../src/base/csv.js';

describe('CSV for spreadsheets', () => {
  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+47 123', "'+47 123"],
    ['-12.00', "'-12.00"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
  ])('escapes a cell starting a formula: %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('quotes what needs quoting and leaves the rest', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(12)).toBe('12');
  });

  it('writes CRLF rows under a header', () => {
    expect(toCsv(['a', 'b'], [[1, '=x']])).toBe("a,b\r\n1,'=x\r\n");
  });
});
