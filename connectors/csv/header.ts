/** Checks of a CSV file's first line and header: is it CSV at all, are the column names usable. */
import { ConnectorError } from '../errors.js';
import { headerName } from '../header-name.js';
import type { InvisibleMode } from '../text/invisible-chars.js';

/** What the first line looks like when it is plainly another format, else undefined. */
export function otherFormatOf(firstLine: string): { kind: string; connector: string } | undefined {
  const t = firstLine.trimStart();
  if (/^<(\?xml|!DOCTYPE|[A-Za-z_][\w.:-]*[\s>/])/i.test(t))
    return { kind: 'XML', connector: 'xml' };
  if (t.startsWith('{') || /^\[\s*(\{|\[|$)/.test(t)) return { kind: 'JSON', connector: 'json' };
  return undefined;
}

/**
 * Header names, trimmed. An empty name marks a column to ignore (spreadsheets leave such columns
 * behind); a name that repeats (or would clash with object internals) is an error.
 */
export function columnNames(
  values: string[],
  file: string,
  line: number,
  invisible: InvisibleMode,
): string[] {
  const names = values.map((v) => headerName(v, invisible, file, { line, at: `line ${line}` }));
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    if (name === '') return;
    if (name === '__proto__') {
      throw new ConnectorError(
        `${file}: the header (line ${line}) has a column named "__proto__", which Ferry does not accept.`,
        { file, line },
      );
    }
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new ConnectorError(
        `${file}: the header (line ${line}) names two columns "${name}" (columns ${earlier + 1} and ${i + 1}): ` +
          'column names must be unique.',
        { file, line, column: name },
      );
    }
    seen.set(name, i);
  });
  return names;
}
