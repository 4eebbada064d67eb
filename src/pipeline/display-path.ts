import { isAbsolute, relative } from 'node:path';

/** A path as messages show it: relative to the working directory when under it. */
export function displayPath(path: string): string {
  if (!isAbsolute(path)) return path;
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
