/**
 * Refuses input whose head is plainly not text (an archive, a PDF, an image, UTF-16 without a
 * byte-order mark, mostly control bytes), saying which. A stray NUL or control byte in an
 * otherwise text file is not refused here: the connector rejects the record holding it.
 */
import { ConnectorError } from '../errors.js';
import type { TextEncoding } from './encoding.js';

/** Share of control bytes (other than tab, CR, LF) in the head above which it is not text. */
const MAX_CONTROL_SHARE = 0.1;
/** Share of NULs at the even (or odd) offsets that marks UTF-16 without a byte-order mark. */
const UTF16_NUL_SHARE = 0.3;

const SIGNATURES: { bytes: number[]; what: string }[] = [
  { bytes: [0x1f, 0x8b], what: 'gzip-compressed: decompress it first' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF document, not text' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image, not text' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image, not text' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image, not text' },
];

function startsWith(head: Uint8Array, bytes: number[]): boolean {
  return bytes.every((b, i) => head[i] === b);
}

/** Which UTF-16 the NULs of the head point to: ASCII letters in UTF-16 pair with a NUL. */
function utf16WithoutBom(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenNul++;
    if (head[i + 1] === 0) oddNul++;
  }
  if (oddNul / pairs >= UTF16_NUL_SHARE && evenNul < oddNul / 4) return 'utf-16le';
  if (evenNul / pairs >= UTF16_NUL_SHARE && oddNul < evenNul / 4) return 'utf-16be';
  return undefined;
}

function controlShare(head: Uint8Array): number {
  let control = 0;
  for (const b of head) if (b < 0x20 && b !== 9 && b !== 10 && b !== 13) control++;
  return head.length === 0 ? 0 : control / head.length;
}

export function rejectNonText(
  head: Buffer,
  name: string,
  encoding: TextEncoding | undefined,
): void {
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    throw new ConnectorError(
      `${name} is a zip archive (an XLSX workbook?), not text: read it with the xlsx connector.`,
      { file: name },
    );
  }
  for (const { bytes, what } of SIGNATURES) {
    if (startsWith(head, bytes)) throw new ConnectorError(`${name} is ${what}.`, { file: name });
  }
  if (encoding?.startsWith('utf-16')) return;
  const utf16 = utf16WithoutBom(head);
  if (utf16) {
    throw new ConnectorError(
      `${name} looks like ${utf16.toUpperCase()} text without a byte-order mark (every other byte ` +
        `is NUL): give the option encoding=${utf16}.`,
      { file: name },
    );
  }
  const share = controlShare(head);
  if (share > MAX_CONTROL_SHARE) {
    throw new ConnectorError(
      `${name} is binary data, not text: ${Math.round(share * 100)}% of its first ` +
        `${head.length} bytes are control bytes.`,
      { file: name },
    );
  }
}
