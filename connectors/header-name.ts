/** A column name read from a header row (csv, xlsx): trimmed, and checked for invisible characters. */
import { ConnectorError } from './errors.js';
import {
  hasInvisible,
  invisibleProblem,
  NAME_ADVICE,
  showInvisible,
  stripInvisible,
  type InvisibleMode,
} from './text/invisible-chars.js';

/**
 * A header name, trimmed; one holding an invisible character (a zero-width space, a bidi control)
 * is refused naming it, or with `strip` loses such characters.
 */
export function headerName(
  raw: string,
  mode: InvisibleMode,
  file: string,
  where: { line: number; at: string },
): string {
  const name = raw.trim();
  if (!hasInvisible(name)) return name;
  if (mode === 'strip') return stripInvisible(name).trim();
  throw new ConnectorError(
    `${file}: in the header (${where.at}), the column name ${invisibleProblem(name)}: ${NAME_ADVICE}.`,
    { file, line: where.line, column: showInvisible(name) },
  );
}
