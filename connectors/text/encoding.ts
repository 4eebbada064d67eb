/**
 * Which text encoding bytes are in: from a byte-order mark, else weighed from the bytes: valid
 * multi-byte UTF-8 sequences against bytes that cannot be UTF-8 (the usual alternative being
 * Windows-1252, the encoding of Nordic and Western European ERP exports).
 */
export const TEXT_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];

/** The values of a connector's `encoding` option. */
export const ENCODING_OPTION_VALUES = ['auto', ...TEXT_ENCODINGS] as const;

export interface Bom {
  encoding: TextEncoding;
  length: number;
}

export function detectBom(head: Uint8Array): Bom | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { encoding: 'utf-8', length: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/**
 * Length of the part of `bytes` that does not end inside a UTF-8 sequence (a chunk boundary may
 * cut one; the rest arrives with the next chunk).
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 3; i--) {
    const b = bytes[i]!;
    if (b < 0x80) return bytes.length;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return i + need > bytes.length ? i : bytes.length;
    }
  }
  return bytes.length;
}

/**
 * Length of the valid UTF-8 sequence starting at `i` (2 to 4), or 0 when the byte there cannot
 * start one (a lone continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut short).
 */
export function utf8SequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i]!;
  let need: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) need = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    need = 3;
    if (b === 0xe0) lo = 0xa0;
    else if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 4;
    if (b === 0xf0) lo = 0x90;
    else if (b === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + need > end) return 0;
  const second = bytes[i + 1]!;
  if (second < lo || second > hi) return 0;
  for (let k = 2; k < need; k++) {
    const c = bytes[i + k]!;
    if (c < 0x80 || c > 0xbf) return 0;
  }
  return need;
}

/** What bytes say about being UTF-8: sequences that are valid multi-byte UTF-8, bytes that are not. */
export interface Utf8Evidence {
  multiByte: number;
  invalid: number;
}

/** Counts the evidence in `bytes` into `into` (the caller cuts off a sequence split at the end). */
export function weighUtf8(bytes: Uint8Array, into: Utf8Evidence): void {
  const end = bytes.length;
  for (let i = 0; i < end; i++) {
    if (bytes[i]! < 0x80) continue;
    const n = utf8SequenceLength(bytes, i, end);
    if (n === 0) into.invalid++;
    else {
      into.multiByte++;
      i += n - 1;
    }
  }
}

/**
 * The encoding the evidence points to, or undefined while there is none (ASCII reads the same in
 * every candidate). UTF-8 wins when its valid sequences are at least as many as the invalid
 * bytes: a UTF-8 export with a stray byte stays UTF-8 (the record holding the byte is rejected),
 * while Windows-1252 text almost never forms a valid multi-byte sequence by chance.
 */
export function encodingFromEvidence(e: Utf8Evidence): TextEncoding | undefined {
  if (e.multiByte === 0 && e.invalid === 0) return undefined;
  return e.multiByte > 0 && e.multiByte >= e.invalid ? 'utf-8' : 'windows-1252';
}

/**
 * First code of the range that stands for bytes that are not valid UTF-8 (0x80-0xFF -> U+DC80-
 * U+DCFF, the "surrogate escape"): a lone low surrogate can come from no valid UTF-8, so a
 * record holding one is known to hold an invalid byte, and which byte it was.
 */
export const ESCAPE_BASE = 0xdc00;

/** UTF-8 bytes -> text, each byte that is not part of a valid sequence escaped (see ESCAPE_BASE). */
export function decodeUtf8Escaping(bytes: Buffer, start: number, end: number): string {
  let out = '';
  let run = start;
  for (let i = start; i < end; i++) {
    if (bytes[i]! < 0x80) continue;
    const n = utf8SequenceLength(bytes, i, end);
    if (n > 0) {
      i += n - 1;
      continue;
    }
    out += bytes.toString('utf8', run, i) + String.fromCharCode(ESCAPE_BASE + bytes[i]!);
    run = i + 1;
  }
  return out + bytes.toString('utf8', run, end);
}
