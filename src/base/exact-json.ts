/**
 * JSON parsed and written again without losing a number's digits. Amounts for a `number` property
 * go out as JSON numbers written from their decimal digits (interface/openapi/item-contract.ts);
 * JSON.parse would make "12345678901234567.89" the double 12345678901234568, and JSON.stringify
 * would send that. Where a payload is parsed and written again (a dead letter kept and replayed,
 * its payloads shown, exported and edited), parseExact keeps each number that a double cannot
 * carry as an ExactNumber of its digits, and stringifyExact writes those digits back. Numbers a
 * double carries (every amount of 15 significant digits or fewer) stay plain numbers.
 */
import { randomBytes } from 'node:crypto';

/** A JSON number kept as its text, because a double would change its value. */
export class ExactNumber {
  constructor(readonly digits: string) {}

  /** For a writer that does not know it (a log line): the nearest double. */
  toJSON(): number {
    return Number(this.digits);
  }
}

/** A decimal as sign, significant digits and exponent: "120.50" -> "12050e-2" -> "1205e-1". */
function normalized(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return text;
  const frac = m[3] ?? '';
  let digits = (m[2]! + frac).replace(/^0+/, '');
  let exponent = Number(m[4] ?? 0) - frac.length;
  if (digits === '') return '0';
  while (digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    exponent += 1;
  }
  return `${m[1]}${digits}e${exponent}`;
}

/** Whether a double holds the number `text` says (whatever its notation). */
export function doubleHolds(text: string): boolean {
  return normalized(String(Number(text))) === normalized(text);
}

// Stand-ins for ExactNumbers while JSON.parse and JSON.stringify do the rest: a string no payload
// holds (a NUL and a random tag of this process).
const TAG = `\u0000exact-${randomBytes(6).toString('hex')}:`;
const TAG_JSON = JSON.stringify(TAG).slice(1, -1);
const TAGGED = new RegExp(`"${TAG_JSON.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}([-+.0-9eE]+)"`, 'g');

/** JSON's number grammar, exponents included. */
const ANY_JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/** JSON.parse, keeping the numbers a double would change as ExactNumbers. */
export function parseExact(text: string): unknown {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && /[-+.0-9eE]/.test(text[end]!)) end += 1;
      const number = text.slice(i, end);
      // Not a JSON number (1.2.3, 01): left as it is for JSON.parse to refuse.
      if (ANY_JSON_NUMBER.test(number) && !doubleHolds(number)) {
        out += `${text.slice(from, i)}"${TAG_JSON}${number}"`;
        from = end;
      }
      i = end - 1;
    }
  }
  if (from === 0) return JSON.parse(text) as unknown;
  return JSON.parse(out + text.slice(from), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(TAG)
      ? new ExactNumber(value.slice(TAG.length))
      : value,
  ) as unknown;
}

/** A copy of `value` with each ExactNumber as its stand-in string; undefined when it has none. */
function tagged(value: unknown): { value: unknown } | undefined {
  if (value instanceof ExactNumber) return { value: TAG + value.digits };
  if (!value || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((v, i) => {
      const t = tagged(v);
      if (t) (copy ??= [...value])[i] = t.value;
    });
    return copy && { value: copy };
  }
  let copy: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const t = tagged(v);
    if (t) (copy ??= { ...(value as Record<string, unknown>) })[k] = t.value;
  }
  return copy && { value: copy };
}

/** JSON.stringify, writing ExactNumbers as their digits. */
export function stringifyExact(value: unknown, indent?: number): string {
  const t = tagged(value);
  const text = JSON.stringify(t ? t.value : value, null, indent);
  return t ? text.replace(TAGGED, '$1') : text;
}
