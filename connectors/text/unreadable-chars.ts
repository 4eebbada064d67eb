/**
 * Characters that text read from an export never holds: control bytes other than tab, CR and LF
 * (a NUL from a broken PIM field), and bytes that were not valid UTF-8 in a UTF-8 input (escaped
 * by the decoder as lone low surrogates; a low surrogate after a high one is a real character).
 * A record holding one is rejected, naming the byte, instead of passing garbage on.
 */
import { ESCAPE_BASE } from './encoding.js';

// eslint-disable-next-line no-control-regex -- control bytes are what it looks for
const UNREADABLE = /[\0-\x08\x0B\x0C\x0E-\x1F]|(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

export function hasUnreadable(text: string): boolean {
  return UNREADABLE.test(text);
}

function hex(code: number): string {
  return `0x${code.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** What is wrong with `value`, naming the byte and its 1-based character position; else undefined. */
export function unreadableProblem(value: string): string | undefined {
  const match = UNREADABLE.exec(value);
  if (!match) return undefined;
  const code = match[0].charCodeAt(0);
  const at = `at character ${match.index + 1}`;
  if (code >= ESCAPE_BASE) {
    return (
      `holds the byte ${hex(code - ESCAPE_BASE)} ${at}, which is not valid UTF-8 (the file reads ` +
      'as UTF-8): correct it in the export, or give the option encoding if the whole file is in another one'
    );
  }
  const what = code === 0 ? 'a NUL byte (0x00)' : `the control byte ${hex(code)}`;
  return `holds ${what} ${at}, which text does not contain: correct it in the export`;
}
