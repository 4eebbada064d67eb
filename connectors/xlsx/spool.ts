import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Copies a stream (stdin, a download) to a temporary file, for a format that needs random access;
 * `remove` deletes it.
 */
export async function spoolToFile(
  stream: Readable,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-spool-'));
  const remove = (): Promise<void> => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'input');
  try {
    await pipeline(stream, createWriteStream(path));
  } catch (error) {
    await remove();
    throw error;
  }
  return { path, remove };
}
