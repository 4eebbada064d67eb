/**
 * Dates in the formats a pipeline names (e.g. `dd.mm.yyyy`, `yyyy-mm-dd`, `dd.mm.yyyy hh:mm`) to
 * ISO 8601: `2026-02-14`, or `2026-02-14T09:30:00` when the format has a time of day (wall-clock
 * time as written; no zone is assumed).
 * Tokens: yyyy, yy, mm (month; minutes after hh), m, dd, d, hh, ss. Other characters are literal.
 */

export type DateResult = { value: string } | { error: string };

type Part = 'year' | 'year2' | 'month' | 'day' | 'hour' | 'minute' | 'second';

export interface DateFormat {
  text: string;
  regex: RegExp;
  parts: Part[];
  hasTime: boolean;
}

const TOKENS: [string, Part, string][] = [
  ['yyyy', 'year', '(\\d{4})'],
  ['yy', 'year2', '(\\d{2})'],
  ['dd', 'day', '(\\d{2})'],
  ['d', 'day', '(\\d{1,2})'],
  ['hh', 'hour', '(\\d{2})'],
  ['ss', 'second', '(\\d{2})'],
];

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compiles a format; throws a plain Error naming the problem (the loader turns it into a config issue). */
export function compileDateFormat(text: string): DateFormat {
  let pattern = '';
  const parts: Part[] = [];
  let afterHour = false;
  let i = 0;
  const lower = text.toLowerCase();
  while (i < text.length) {
    const rest = lower.slice(i);
    if (rest.startsWith('mm') || rest.startsWith('m')) {
      const two = rest.startsWith('mm');
      parts.push(afterHour ? 'minute' : 'month');
      pattern += two ? '(\\d{2})' : '(\\d{1,2})';
      i += two ? 2 : 1;
      continue;
    }
    const token = TOKENS.find(([t]) => rest.startsWith(t));
    if (token) {
      parts.push(token[1]);
      pattern += token[2];
      if (token[1] === 'hour') afterHour = true;
      i += token[0].length;
      continue;
    }
    if (/[a-z]/.test(rest.charAt(0))) {
      throw new Error(`unknown token at "${text.slice(i)}" (use yyyy, yy, mm, m, dd, d, hh, ss)`);
    }
    pattern += escapeRegex(text.charAt(i));
    i += 1;
  }
  const has = (p: Part): boolean => parts.includes(p);
  if (!(has('year') || has('year2')) || !has('month') || !has('day')) {
    throw new Error('a date format needs a year (yyyy or yy), a month (mm) and a day (dd)');
  }
  return { text, regex: new RegExp(`^${pattern}$`), parts, hasTime: has('hour') };
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function fromMatch(match: RegExpExecArray, format: DateFormat): string | undefined {
  const v: Record<Part, number> = {
    year: 0,
    year2: -1,
    month: 0,
    day: 0,
    hour: 0,
    minute: 0,
    second: 0,
  };
  format.parts.forEach((part, index) => {
    v[part] = Number(match[index + 1]);
  });
  const year = v.year2 >= 0 ? 2000 + v.year2 : v.year;
  if (v.month < 1 || v.month > 12) return undefined;
  if (v.day < 1 || v.day > daysInMonth(year, v.month)) return undefined;
  if (v.hour > 23 || v.minute > 59 || v.second > 59) return undefined;
  const date = `${pad(year, 4)}-${pad(v.month)}-${pad(v.day)}`;
  return format.hasTime ? `${date}T${pad(v.hour)}:${pad(v.minute)}:${pad(v.second)}` : date;
}

/** The first of `formats` that reads `raw` as a real calendar date gives the result. */
export function parseDate(raw: string, formats: readonly DateFormat[]): DateResult {
  for (const format of formats) {
    const match = format.regex.exec(raw);
    if (!match) continue;
    const value = fromMatch(match, format);
    if (value) return { value };
    return { error: `"${raw}" is not a real date (format ${format.text})` };
  }
  return {
    error: `expected a date in the format ${formats.map((f) => f.text).join(' or ')}, got "${raw}"`,
  };
}
