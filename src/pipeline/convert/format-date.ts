/**
 * The way back of convert/date.ts: an ISO 8601 date or date-time as the platform answers it
 * (`2026-02-14`, `2026-02-14T09:30:00`, `2026-02-14T08:30:00.000Z`, `...+01:00`) written in a
 * format an ERP reads (`dd.mm.yyyy`, `yyyymmdd`, `dd.mm.yyyy hh:mm`). A value with a zone (Z or
 * an offset) is written as the wall-clock time of `timeZone`; one without is written as it is.
 * Tokens: yyyy, yy, mm (month; minutes right after hh), m, dd, d, hh, ss; anything else is
 * literal (`T` included).
 */

type Part = 'year' | 'year2' | 'month' | 'month1' | 'day' | 'day1' | 'hour' | 'minute' | 'second';
type Token = { literal: string } | { part: Part };

export type DateWriter = (iso: string) => { value: string } | { error: string };

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const TOKENS: [string, Part][] = [
  ['yyyy', 'year'],
  ['yy', 'year2'],
  ['dd', 'day'],
  ['d', 'day1'],
  ['hh', 'hour'],
  ['ss', 'second'],
];

function tokenize(format: string): Token[] {
  const tokens: Token[] = [];
  const lower = format.toLowerCase();
  let i = 0;
  let lastPart: Part | undefined;
  while (i < format.length) {
    const rest = lower.slice(i);
    if (rest.startsWith('m')) {
      const two = rest.startsWith('mm');
      lastPart = two && lastPart === 'hour' ? 'minute' : two ? 'month' : 'month1';
      tokens.push({ part: lastPart });
      i += two ? 2 : 1;
      continue;
    }
    const token = TOKENS.find(([t]) => rest.startsWith(t));
    if (token) {
      lastPart = token[1];
      tokens.push({ part: lastPart });
      i += token[0].length;
      continue;
    }
    if (/[a-z]/.test(rest.charAt(0)) && rest.charAt(0) !== 't') {
      throw new Error(`unknown token at "${format.slice(i)}" (use yyyy, yy, mm, m, dd, d, hh, ss)`);
    }
    tokens.push({ literal: format.charAt(i) });
    i += 1;
  }
  return tokens;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    zoneFormats.set(timeZone, format);
  }
  return format;
}

/** Throws a plain Error for a zone Intl does not know (the loader makes it a config issue). */
export function checkTimeZone(timeZone: string): void {
  try {
    zoneFormat(timeZone);
  } catch {
    throw new Error(`expected an IANA time zone, e.g. "Europe/Oslo" or "UTC", got "${timeZone}"`);
  }
}

type Fields = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;

function inZone(instant: number, timeZone: string): Fields {
  const out: Partial<Fields> = {};
  for (const p of zoneFormat(timeZone).formatToParts(new Date(instant))) {
    if (p.type in { year: 1, month: 1, day: 1, hour: 1, minute: 1, second: 1 }) {
      out[p.type as keyof Fields] = Number(p.value);
    }
  }
  return out as Fields;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function write(tokens: readonly Token[], f: Fields): string {
  let out = '';
  for (const t of tokens) {
    if ('literal' in t) {
      out += t.literal;
      continue;
    }
    switch (t.part) {
      case 'year':
        out += pad(f.year, 4);
        break;
      case 'year2':
        out += pad(f.year % 100);
        break;
      case 'month':
        out += pad(f.month);
        break;
      case 'month1':
        out += String(f.month);
        break;
      case 'day':
        out += pad(f.day);
        break;
      case 'day1':
        out += String(f.day);
        break;
      case 'hour':
        out += pad(f.hour);
        break;
      case 'minute':
        out += pad(f.minute);
        break;
      case 'second':
        out += pad(f.second);
        break;
    }
  }
  return out;
}

/** Compiles a format; throws a plain Error naming the problem. */
export function compileDateWriter(format: string, timeZone: string): DateWriter {
  const tokens = tokenize(format);
  checkTimeZone(timeZone);
  // The rows of one item (an order's lines) write the same value one after the other.
  let lastIn: string | undefined;
  let lastOut: { value: string } | { error: string } = { error: '' };
  return (iso) => {
    if (iso !== lastIn) {
      lastOut = write1(iso);
      lastIn = iso;
    }
    return lastOut;
  };
  function write1(iso: string): { value: string } | { error: string } {
    const m = ISO.exec(iso);
    if (!m) return { error: `expected an ISO 8601 date or date-time, got "${iso}"` };
    const [, y, mo, d, h, mi, s, zone] = m;
    let fields: Fields = {
      year: Number(y),
      month: Number(mo),
      day: Number(d),
      hour: Number(h ?? 0),
      minute: Number(mi ?? 0),
      second: Number(s ?? 0),
    };
    if (zone !== undefined) {
      const instant = Date.parse(iso.replace(' ', 'T'));
      if (Number.isNaN(instant)) return { error: `"${iso}" is not a real date-time` };
      fields = inZone(instant, timeZone);
    }
    return { value: write(tokens, fields) };
  }
}

/** A date of the clock (the run's date in a file name) in `format` and `timeZone`. */
export function formatInstant(instant: number, format: string, timeZone: string): string {
  return write(tokenize(format), inZone(instant, timeZone));
}
