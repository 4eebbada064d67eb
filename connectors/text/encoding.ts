/**
 * Which text encoding bytes are in: from a byte-order mark, else UTF-8 when the bytes are valid
 * UTF-8, else Windows-1252 (the usual encoding of Nordic and Western European ERP exports).
 */
import { isAscii, isUtf8 } from 'node:buffer';

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
function completeUtf8Length(bytes: Uint8Array): number {
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
 * The encoding of bytes with no BOM, judged from their non-ASCII bytes; undefined when they are
 * all ASCII (then nothing tells yet, and ASCII reads the same in every candidate).
 */
export function sniffEncoding(bytes: Uint8Array): TextEncoding | undefined {
  if (isAscii(bytes)) return undefined;
  return isUtf8(bytes.subarray(0, completeUtf8Length(bytes))) ? 'utf-8' : 'windows-1252';
}
