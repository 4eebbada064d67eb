import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { SourceError, SourceNotFoundError } from '../errors.js';
import type { OpenedSource } from './types.js';

/**
 * Bytes per read. Larger chunks read a little faster but keep more parsed records alive at once
 * (measured on bench/read-csv.ts: 256 KiB gave 10% more rows/s and 30 MB more peak RSS).
 */
const CHUNK_BYTES = 64 * 1024;

export async function openFile(path: string): Promise<OpenedSource> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SourceNotFoundError(`${path}: no such file.`, { file: path });
    throw new SourceError(`${path} cannot be opened: ${code ?? (error as Error).message}.`, {
      file: path,
    });
  }
  if (isDirectory) {
    throw new SourceNotFoundError(`${path} is a folder, not a file: read it as a folder source.`, {
      file: path,
    });
  }
  return {
    name: path,
    stream: createReadStream(path, { highWaterMark: CHUNK_BYTES }),
    path,
    hint: path,
  };
}
