/**
 * A file-name glob (no folders): `*` any run of characters, `?` one character, `[abc]` / `[a-z]`
 * one of a set, `{csv,txt}` one of the alternatives. Case-sensitive, matched against the whole name.
 */
export function globToRegExp(pattern: string): RegExp {
  let re = '';
  let inBraces = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close === -1) re += '\\[';
      else {
        const set = pattern.slice(i + 1, close).replace(/\\/g, '\\\\');
        re += set.startsWith('!') ? `[^${set.slice(1)}]` : `[${set}]`;
        i = close;
      }
    } else if (c === '{' && !inBraces) {
      inBraces = true;
      re += '(?:';
    } else if (c === '}' && inBraces) {
      inBraces = false;
      re += ')';
    } else if (c === ',' && inBraces) re += '|';
    else re += c.replace(/[.+^$()|\\{}\]]/g, '\\$&');
  }
  if (inBraces) re += ')';
  return new RegExp(`^${re}$`);
}
