/**
 * The texts of a JSON array's elements, as they stand in it: a part of a request's body is cut out
 * of the planned JSON without parsing it, so numbers written from decimal digits keep every digit
 * (JSON.parse would make them doubles). The text must be a valid JSON array.
 */
export function jsonArrayItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
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
