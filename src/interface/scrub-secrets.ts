/**
 * Replaces every occurrence of a secret in text that is about to reach an error, a dead letter or
 * a report, in the forms a platform echoes it: as it is; percent-encoded, wholly or in part (hex in
 * either case, `+` for a space); in base64 or base64url at any alignment, so also inside a Basic
 * credential (`base64(user:secret)`) or any other blob that embeds it. A base64 form is redacted
 * with the whole run of base64 characters around it.
 */

const REDACTED = '[redacted]';
/** Very short values would blank out ordinary words; real credentials are longer. */
const MIN_SECRET_CHARS = 4;
/** A base64 core shorter than this (a secret of a few bytes) would match ordinary text. */
const MIN_BASE64_CORE = 8;

interface Scrubber {
  /** The secret as it is or percent-encoded. */
  plain: RegExp;
  /** The secret's base64 and base64url cores (each possibly percent-encoded). */
  base64: RegExp[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `%` and two hex digits in either case for one byte. */
function percentByte(byte: number): string {
  const hex = byte.toString(16).toUpperCase().padStart(2, '0');
  const digit = (d: string): string => (/[A-F]/.test(d) ? `[${d}${d.toLowerCase()}]` : d);
  return `%${digit(hex[0]!)}${digit(hex[1]!)}`;
}

/** A pattern for `text` with each character as it is or percent-encoded (space also as `+`). */
function encodedPattern(text: string): string {
  let pattern = '';
  for (const char of text) {
    const forms = [escapeRegExp(char), [...Buffer.from(char)].map(percentByte).join('')];
    if (char === ' ') forms.push('\\+');
    if (char === '/') forms.push('\\\\/'); // JSON may escape a slash
    pattern += `(?:${forms.join('|')})`;
  }
  return pattern;
}

/**
 * The base64 text the secret's bytes give at each of the three alignments it may have inside a
 * longer encoded blob: the whole groups of three of its bytes, from its first, second or third.
 * Any base64 encoding holding the secret holds one of them.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const cores = new Set<string>();
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole <= 0) continue;
    const core = bytes.subarray(skip, skip + whole).toString('base64');
    if (core.length < MIN_BASE64_CORE) continue;
    cores.add(core);
    cores.add(core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...cores];
}

const scrubbers = new Map<string, Scrubber>();
/** Secrets change rarely (a renewed token): a few are remembered, the cache never grows past this. */
const MAX_SCRUBBERS = 64;

function scrubberOf(secret: string): Scrubber {
  let scrubber = scrubbers.get(secret);
  if (!scrubber) {
    scrubber = {
      plain: new RegExp(encodedPattern(secret), 'g'),
      base64: base64Cores(secret).map((core) => new RegExp(encodedPattern(core), 'g')),
    };
    if (scrubbers.size >= MAX_SCRUBBERS) scrubbers.clear();
    scrubbers.set(secret, scrubber);
  }
  return scrubber;
}

function isBase64Char(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || // 0-9
    (c >= 65 && c <= 90) || // A-Z
    (c >= 97 && c <= 122) || // a-z
    c === 43 || // +
    c === 47 || // /
    c === 45 || // -
    c === 95 || // _
    c === 61 // =
  );
}

/** Redacts each match of `core` with the run of base64 characters it stands in. */
function redactRuns(text: string, core: RegExp): string {
  let out = '';
  let from = 0;
  core.lastIndex = 0;
  for (let m = core.exec(text); m; m = core.exec(text)) {
    let start = m.index;
    let end = start + m[0].length;
    while (start > from && isBase64Char(text.charCodeAt(start - 1))) start--;
    while (end < text.length && isBase64Char(text.charCodeAt(end))) end++;
    out += text.slice(from, start) + REDACTED;
    from = end;
    core.lastIndex = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    const scrubber = scrubberOf(secret);
    out = out.replace(scrubber.plain, REDACTED);
    for (const core of scrubber.base64) out = redactRuns(out, core);
  }
  return out;
}
