/**
 * The texts of a JSON array's elements, as they stand in it: a part of a request's body is cut out
 * of the planned JSON without parsing it, so numbers written from decimal digits keep every digit
 * (JSON.parse would make them doubles). The text must be a valid JSON array.
 */
export function jsonArrayItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A string ends at the next quote not escaped: found with indexOf rather than char by char,
    // since most of a payload's text is in its strings (delivery cuts every batch it commits).
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth === 1) start = i + 1;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
      if (depth === 0) {
        const last = text.slice(start, i).trim();
        if (last !== '') items.push(last);
      }
    } else if (c === 0x2c && depth === 1) {
      items.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return items;
}

/** The index of the quote that closes the string opening at `open` (the text's end if none). */
function stringEnd(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}
