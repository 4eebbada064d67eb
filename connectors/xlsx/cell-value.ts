/**
 * Spreadsheet cell values as text: numbers without float noise (as Excel shows them, 15
 * significant digits, never in exponent form), date-formatted serials as ISO 8601.
 */

/** 0-based column of a cell reference such as `AB12` (-1 when there is none). */
export function columnIndex(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return i === 0 ? -1 : n - 1;
}

/** Column letters of a 0-based index (0 -> A, 27 -> AB). */
export function columnLetters(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  }
  return s;
}

/** `1.5e-7` -> `0.00000015`; `1e+21` -> `1000000000000000000000`. */
function expandExponent(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, lead, rest = '', exp] = match;
  const digits = lead! + rest;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A stored number (`2867.7700000000004`) as Excel shows it (`2867.77`). */
export function numberText(stored: string): string {
  const n = Number(stored);
  if (stored.trim() === '' || !Number.isFinite(n)) return stored;
  return expandExponent(String(Number(n.toPrecision(15))));
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * A date serial as ISO 8601: a whole number gives the date, a fraction the date and time (to the
 * second), a serial below 1 the time alone. `date1904`: the workbook counts from 1904-01-01.
 */
export function serialToIso(serial: number, date1904: boolean): string {
  let days = Math.floor(serial);
  let seconds = Math.round((serial - days) * 86_400);
  if (seconds === 86_400) [days, seconds] = [days + 1, 0];
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  if (days === 0 && seconds > 0) return time;
  // 1900 system: serial 1 is 1900-01-01, and Excel counts a 29 February 1900 that never was (60).
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, days < 60 ? 31 : 30);
  const d = new Date(epoch + days * 86_400_000);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return seconds === 0 ? date : `${date}T${time}`;
}

/** Built-in number formats that show dates or times (ECMA-376 18.8.30, with the CJK ones). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

/** Does a number format show a date or time? Literal text, colours and escapes do not count. */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (DATE_FORMAT_IDS.has(id)) return true;
  if (!code) return false;
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '');
  return /[dmyhs]/i.test(bare);
}
