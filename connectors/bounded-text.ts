/**
 * Text of one record or field gathered piece by piece as it streams in, up to a limit in UTF-8
 * bytes: past it the pieces are only counted, never held, so a giant record (a 17 MiB line, a 2 GB
 * run of NULs) costs no more memory than the limit, and its error can still say how large it was.
 * Shared by the connectors' scanners (csv fields, json records and lines, xml texts, xlsx cells).
 */

import { z } from 'zod';

const MiB = 1024 * 1024;

/**
 * A size limit option of a connector (`maxFieldBytes`, `maxRecordBytes`), in UTF-8 bytes:
 * 16 MiB for a field (or a json record), 64 MiB for a record of many fields.
 */
export function byteLimitOption(what: 'field' | 'record', description: string) {
  return z
    .int()
    .min(1)
    .default((what === 'field' ? 16 : 64) * MiB)
    .meta({ description });
}

/** A record or field over its limit: its size in UTF-8 bytes (the text itself was not kept). */
export interface Oversized {
  bytes: number;
}

export function isOversized(value: string | Oversized): value is Oversized {
  return typeof value !== 'string';
}

/**
 * What an oversized record or field gives as a row error's message: its size, the limit and the
 * option that raises it (`what`: "the field", "the record", "the text").
 */
export function oversizedMessage(
  what: string,
  size: Oversized,
  connector: string,
  option: string,
  limit: number,
): string {
  return (
    `${what} is ${size.bytes} bytes, larger than ${option} (${limit} bytes): it was not read ` +
    `(the ${connector} option ${option} raises the limit)`
  );
}

/**
 * `held` with `text` added, or its size once it is past `maxBytes` (then only counted). V8 joins
 * strings as ropes, so adding piece by piece costs no copy; `finish` gives the exact verdict.
 */
export function appendBounded(
  held: string | Oversized,
  text: string,
  maxBytes: number,
): string | Oversized {
  if (isOversized(held)) return { bytes: held.bytes + Buffer.byteLength(text) };
  const joined = held + text;
  // A UTF-16 unit is at least one UTF-8 byte: past the limit in units is past it in bytes.
  return joined.length > maxBytes ? { bytes: Buffer.byteLength(joined) } : joined;
}

/** `text`, or its size when its UTF-8 bytes are over `maxBytes` (cheap while clearly under). */
export function checkedSize(text: string | Oversized, maxBytes: number): string | Oversized {
  if (isOversized(text) || text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.byteLength(text);
  return bytes > maxBytes ? { bytes } : text;
}

/** appendBounded and checkedSize with the limit and the text in one place. */
export class BoundedText {
  private held: string | Oversized = '';

  constructor(readonly maxBytes: number) {}

  /** Nothing gathered since the last take(). */
  get empty(): boolean {
    return this.held === '';
  }

  /** Adds text[start, end). */
  append(text: string, start = 0, end = text.length): void {
    if (end > start) this.held = appendBounded(this.held, text.slice(start, end), this.maxBytes);
  }

  /** The text gathered (or its size when over the limit), and a fresh start. */
  take(): string | Oversized {
    const held = this.held;
    this.held = '';
    return checkedSize(held, this.maxBytes);
  }
}
