/**
 * A source copied, byte for byte, into a folder: what a run the guards stopped keeps of its input,
 * so that allowing it sends exactly the plan it stopped whatever it read (a file, a folder, an
 * upload, a URL, SFTP, S3). Each input becomes `<nnnn>-<its name>` (a folder's in the order it is
 * read), so the folder read back in name order gives the same records.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openSources } from './open-sources.js';
import type { SourceContext, SourceSpec } from './types.js';

/** Copies every input of `spec` into `dir` (created); the files written, in reading order. */
export async function copySource(
  spec: SourceSpec,
  dir: string,
  context: SourceContext = {},
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for await (const source of openSources(spec, context)) {
    // The name keeps the extension the connector is chosen by; a URL's may have none.
    const name = basename(source.path ?? source.hint).replace(/[^\w.-]/g, '_') || 'input';
    const file = join(dir, `${String(written.length).padStart(4, '0')}-${name}`);
    await pipeline(source.stream, createWriteStream(file));
    written.push(file);
  }
  return written;
}
