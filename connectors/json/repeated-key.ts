/**
 * Finds a key given twice in one object of a record's (valid) JSON text: JSON.parse keeps the
 * last value without a word, so `{"sku":"J2","sku":"J3"}` would read as J3. Only run when the
 * counts of keys before and after parsing differ, so its cost is paid by such records alone.
 */

interface Frame {
  path: string;
  /** The keys of an object frame; undefined for an array. */
  keys: Set<string> | undefined;
  key: string;
  index: number;
}

export interface RepeatedKey {
  /** The field it gives: its dotted path from the record (`address.city`). */
  path: string;
  /** The key itself, exactly as the object gives it (it may hold dots: `{"a.b": 1}`). */
  key: string;
  /** Lines after the record's first line on which the repeat stands. */
  lineOffset: number;
}

const join = (path: string, name: string): string => (path ? `${path}.${name}` : name);

function childPath(top: Frame | undefined): string {
  if (!top) return '';
  return join(top.path, top.keys ? top.key : String(top.index));
}

/** The end of the string that opens at `start` (the index of its closing quote). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

export function findRepeatedKey(text: string): RepeatedKey | undefined {
  const stack: Frame[] = [];
  let lineOffset = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '\n') lineOffset++;
    else if (c === '{' || c === '[') {
      stack.push({
        path: childPath(top),
        keys: c === '{' ? new Set() : undefined,
        key: '',
        index: 0,
      });
    } else if (c === '}' || c === ']') stack.pop();
    else if (c === ',' && top && !top.keys) top.index++;
    else if (c === '"') {
      const end = stringEnd(text, i);
      let next = end + 1;
      while (next < text.length && /\s/.test(text[next]!)) next++;
      if (top?.keys && text[next] === ':') {
        const key: string = JSON.parse(text.slice(i, end + 1));
        if (top.keys.has(key)) return { path: join(top.path, key), key, lineOffset };
        top.keys.add(key);
        top.key = key;
      }
      i = end;
    }
  }
  return undefined;
}
