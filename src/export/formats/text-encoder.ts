/**
 * Text -> bytes in an export file's encoding. UTF-8 holds every character; Windows-1252 (the
 * encoding of Nordic and Western European ERP imports) holds 251 of them: Latin-1's, with the
 * 27 characters of 0x80-0x9F from the encoding's table (not from TextDecoder, which Node 20
 * decodes as Latin-1 there).
 */
import type { ExportEncoding } from '../../pipeline/index.js';

export type EncodeResult = { bytes: Buffer } | { unmappable: string };

export type TextEncoderFn = (text: string) => EncodeResult;

/** Windows-1252's 0x80-0x9F; the five bytes it leaves undefined are not written. */
const HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const UNDEFINED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

function windows1252Table(): Map<number, number> {
  const table = new Map<number, number>();
  for (let i = 0; i < 32; i += 1) {
    if (!UNDEFINED.has(0x80 + i)) table.set(HIGH.codePointAt(i)!, 0x80 + i);
  }
  for (let byte = 0xa0; byte <= 0xff; byte += 1) table.set(byte, byte);
  return table;
}

/** `replace`: a character the encoding lacks is written `?`; otherwise it is reported. */
export function textEncoder(encoding: ExportEncoding, replace: boolean): TextEncoderFn {
  if (encoding === 'utf-8') return (text) => ({ bytes: Buffer.from(text, 'utf8') });
  const table = windows1252Table();
  return (text) => {
    const bytes = Buffer.allocUnsafe(text.length);
    let n = 0;
    for (const char of text) {
      const code = char.codePointAt(0)!;
      const byte = code < 0x80 ? code : table.get(code);
      if (byte === undefined) {
        if (!replace) return { unmappable: char };
        bytes[n++] = 0x3f;
      } else bytes[n++] = byte;
    }
    return { bytes: bytes.subarray(0, n) };
  };
}
