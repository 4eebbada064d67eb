import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SourceError, SourceNotFoundError } from '../errors.js';
import { openFile } from './file.js';
import { globToRegExp } from './glob.js';
import type { OpenedSource } from './types.js';

/** Names of the files in `folder` that match `pattern`, in name order (by code point). */
export async function folderFiles(folder: string, pattern = '*'): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SourceNotFoundError(`${folder}: no such folder.`, { folder });
    if (code === 'ENOTDIR') throw new SourceNotFoundError(`${folder} is not a folder.`, { folder });
    throw new SourceError(`${folder} cannot be listed: ${code ?? (error as Error).message}.`, {
      folder,
    });
  }
  const match = globToRegExp(pattern);
  const names: string[] = [];
  for (const entry of entries) {
    if (!match.test(entry.name)) continue;
    const isFile = entry.isSymbolicLink()
      ? (await stat(join(folder, entry.name)).catch(() => undefined))?.isFile()
      : entry.isFile();
    if (isFile) names.push(entry.name);
  }
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Opens the matching files one after the other (one open at a time); their records carry the
 * file's name under `shownAs` (the folder as the operator wrote it).
 */
export async function* openFolder(
  folder: string,
  pattern = '*',
  shownAs = folder,
): AsyncGenerator<OpenedSource> {
  const names = await folderFiles(folder, pattern);
  if (names.length === 0) {
    throw new SourceError(`${shownAs} has no file matching "${pattern}".`, {
      folder: shownAs,
      pattern,
    });
  }
  for (const name of names) yield await openFile(join(folder, name), join(shownAs, name));
}
