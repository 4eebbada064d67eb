/**
 * JSON.parse turns numbers into floats, and a float cannot say "1299.10" or a 20-digit id exactly.
 * Every value becomes a string anyway, so number tokens are quoted before parsing: each keeps its
 * exact text from the file. The same pass counts the keys the text gives (the colons outside
 * strings), so that a key repeated in one object, which JSON.parse would drop, is noticed.
 */

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const QUOTE = 34;
const BACKSLASH = 92;
const MINUS = 45;
const COLON = 58;

function isNumberChar(c: number): boolean {
  // digits, + - . e E
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46 || c === 101 || c === 69;
}

export class InvalidJsonNumber extends Error {
  constructor(readonly token: string) {
    super(`"${token}" is not a valid JSON number`);
  }
}

/** Keys counted in a record's text, across all its objects. */
export interface KeyTally {
  keys: number;
}

/**
 * `text` with every number token outside strings wrapped in quotes; throws InvalidJsonNumber.
 * Adds the keys the text gives to `tally`.
 */
export function quoteNumbers(text: string, tally: KeyTally): string {
  let out = '';
  let last = 0;
  let inString = false;
  const len = text.length;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === COLON) tally.keys++;
    else if (c === MINUS || (c >= 48 && c <= 57)) {
      let j = i + 1;
      while (j < len && isNumberChar(text.charCodeAt(j))) j++;
      const token = text.slice(i, j);
      if (!NUMBER.test(token)) throw new InvalidJsonNumber(token);
      out += `${text.slice(last, i)}"${token}"`;
      last = j;
      i = j - 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
