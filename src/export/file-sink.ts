/**
 * Export files are written whole or not at all: the bytes go to a temporary file in the target
 * folder (a dot-name an ERP's `*.csv` pattern does not match), are synced to disk, and the file is
 * renamed to its name (atomic within one file system), then the folder is synced so the rename
 * survives a crash. A reader of the folder sees no file, or the whole file. The SHA-256 of the
 * bytes is taken as they are written; a dry run only takes the hash.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

const BUFFER_BYTES = 256 * 1024;

export interface FileSink {
  write(bytes: Buffer): Promise<void>;
  /** Flushes and syncs the file; its bytes' SHA-256 (hex) and size. */
  finish(): Promise<{ sha256: string; bytes: number }>;
  /** Closes and removes the temporary file (a run that failed). */
  discard(): Promise<void>;
}

/** `.ferry-<runId>.<file>.tmp`: the run's temporary name for `file`. */
export function tempName(runId: string, file: string): string {
  return `.ferry-${runId}.${file}.tmp`;
}

/** Removes temporary files a run of this pipeline left (its process died while writing). */
export async function removeStaleTemps(folder: string, pipeline: string): Promise<string[]> {
  const escaped = pipeline.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const mine = new RegExp(`^\\.ferry-${escaped}-\\d{8}T\\d{6}-[0-9a-f]{4}\\..+\\.tmp$`);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const stale = names.filter((n) => mine.test(n));
  await Promise.all(stale.map((n) => unlink(join(folder, n)).catch(() => undefined)));
  return stale;
}

class HashOnly implements FileSink {
  protected readonly hash = createHash('sha256');
  protected size = 0;
  write(bytes: Buffer): Promise<void> {
    this.hash.update(bytes);
    this.size += bytes.length;
    return Promise.resolve();
  }
  finish(): Promise<{ sha256: string; bytes: number }> {
    return Promise.resolve({ sha256: this.hash.digest('hex'), bytes: this.size });
  }
  discard(): Promise<void> {
    return Promise.resolve();
  }
}

class TempFile extends HashOnly {
  private held: Buffer[] = [];
  private heldBytes = 0;
  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {
    super();
  }
  override async write(bytes: Buffer): Promise<void> {
    await super.write(bytes);
    this.held.push(bytes);
    this.heldBytes += bytes.length;
    if (this.heldBytes >= BUFFER_BYTES) await this.flush();
  }
  private async flush(): Promise<void> {
    if (this.heldBytes === 0) return;
    const data = Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    await this.handle.write(data);
  }
  override async finish(): Promise<{ sha256: string; bytes: number }> {
    await this.flush();
    await this.handle.sync();
    await this.handle.close();
    return await super.finish();
  }
  override async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.path).catch(() => undefined);
  }
}

/** A sink that only hashes (a dry run). */
export function hashSink(): FileSink {
  return new HashOnly();
}

/** A new temporary file at `path` (the folder is made when missing). */
export async function tempFileSink(folder: string, path: string): Promise<FileSink> {
  await mkdir(folder, { recursive: true });
  return new TempFile(await open(path, 'wx'), path);
}

async function syncFolder(folder: string): Promise<void> {
  const dir = await open(folder, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/** Renames the synced temporary file to its name and syncs the folder. */
export async function publish(folder: string, temp: string, final: string): Promise<void> {
  await rename(temp, final);
  await syncFolder(folder);
}

/** Writes a small file (a manifest) whole or not at all. */
export async function writeWhole(
  folder: string,
  temp: string,
  final: string,
  text: string,
): Promise<void> {
  const sink = await tempFileSink(folder, temp);
  try {
    await sink.write(Buffer.from(text, 'utf8'));
    await sink.finish();
  } catch (error) {
    await sink.discard();
    throw error;
  }
  await publish(folder, temp, final);
}

/** The SHA-256 (hex) of a file, or undefined when there is none. */
export async function sha256OfFile(path: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return hash.digest('hex');
}
