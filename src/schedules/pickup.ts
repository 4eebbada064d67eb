/**
 * Tonight's export out of a folder source: the files that match the pattern and have not changed
 * for `quietSeconds` (one still being written is left for the next tick), and, after a run, the
 * move that keeps the next tick from reading it again.
 */
import { mkdir, rename, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { folderFiles } from '../../connectors/sources/folder.js';
import type { Pickup } from '../pipeline/definition/schedule-schema.js';

export interface PickedExports {
  /** The files to read, in order (one run each). */
  take: string[];
  /** Older files that a newer export made obsolete (take: newest): archived unread. */
  superseded: string[];
  /** Files still being written. */
  settling: string[];
}

export async function pickExports(
  folder: string,
  pattern: string | undefined,
  pickup: Pickup,
  now = Date.now(),
): Promise<PickedExports> {
  const files = await Promise.all(
    (await folderFiles(folder, pattern)).map(async (name) => {
      const path = join(folder, name);
      return { path, mtime: (await stat(path)).mtimeMs };
    }),
  );
  const quiet = (f: { mtime: number }): boolean => now - f.mtime >= pickup.quietSeconds * 1000;
  const ready = files.filter(quiet).sort((a, b) => a.mtime - b.mtime);
  const settling = files.filter((f) => !quiet(f)).map((f) => f.path);
  if (pickup.take === 'all') return { take: ready.map((f) => f.path), superseded: [], settling };
  const newest = ready.at(-1);
  return {
    take: newest ? [newest.path] : [],
    superseded: ready.slice(0, -1).map((f) => f.path),
    settling,
  };
}

/**
 * Moves `file` into `folder` (relative to the file's own folder), creating it; a name already
 * there gets the time appended. Returns the new path.
 */
export async function moveExport(file: string, folder: string, now = new Date()): Promise<string> {
  const target = resolve(file, '..', folder);
  await mkdir(target, { recursive: true });
  let to = join(target, basename(file));
  if (await stat(to).catch(() => undefined)) {
    to = `${to}.${now.toISOString().replace(/[-:.]/g, '')}`;
  }
  await rename(file, to);
  return to;
}
