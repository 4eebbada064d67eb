/**
 * Tonight's export out of a folder source: the files that match the pattern and have not changed
 * for `quietSeconds` (one still being written is left for the next tick), and, after a run, the
 * move that keeps the next tick from reading it again.
 */
import { mkdir, rename, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { folderFiles } from '../../connectors/index.js';
import type { Pickup } from '../pipeline/index.js';

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
  const chosen = chooseExports(files, pickup, now);
  return {
    take: chosen.take.map((f) => f.path),
    superseded: chosen.superseded.map((f) => f.path),
    settling: chosen.settling.map((f) => f.path),
  };
}

/**
 * Which files a tick takes (quiet for `quietSeconds`, newest or all, oldest first), which a newer
 * one supersedes, which are still being written: for a folder and for SFTP and S3 drops alike.
 */
export function chooseExports<T extends { mtime: number }>(
  files: readonly T[],
  pickup: Pickup,
  now: number,
): { take: T[]; superseded: T[]; settling: T[] } {
  const quiet = (f: T): boolean => now - f.mtime >= pickup.quietSeconds * 1000;
  const ready = files.filter(quiet).sort((a, b) => a.mtime - b.mtime);
  const settling = files.filter((f) => !quiet(f));
  if (pickup.take === 'all') return { take: ready, superseded: [], settling };
  const newest = ready.at(-1);
  return { take: newest ? [newest] : [], superseded: ready.slice(0, -1), settling };
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
