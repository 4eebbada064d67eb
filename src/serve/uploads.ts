/**
 * Files posted to `POST /api/pipelines/{name}/runs`: streamed to disk (never whole into memory)
 * under `<delivery.reportsDir>/uploads`, cut off with FERRY_UPLOAD_TOO_LARGE past the limit, and
 * removed once older than serve.uploadRetentionDays.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FerryError, type UploadDetails } from '../errors/index.js';

export class UploadTooLargeError extends FerryError<'FERRY_UPLOAD_TOO_LARGE'> {
  readonly code = 'FERRY_UPLOAD_TOO_LARGE';
  constructor(limit: number) {
    super(
      `The file is larger than serve.uploadMaxBytes (${limit} bytes): nothing was read. Raise ` +
        'serve.uploadMaxBytes (FERRY_UPLOAD_MAX_BYTES), or run it with `ferry run --file`.',
      { limit },
    );
  }
}

export class UnsupportedMediaTypeError extends FerryError<'FERRY_UNSUPPORTED_MEDIA_TYPE'> {
  readonly code = 'FERRY_UNSUPPORTED_MEDIA_TYPE';

  constructor(message: string, details: UploadDetails = {}) {
    super(message, details);
  }
}

export function uploadsDir(reportsDir: string): string {
  return resolve(reportsDir, 'uploads');
}

/** Writes `body` to a new file in `dir` named `<time>-<random><extension>`; returns its path. */
export async function saveUpload(
  body: Readable,
  dir: string,
  extension: string,
  maxBytes: number,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  const file = join(dir, `${stamp}-${randomBytes(3).toString('hex')}${extension}`);
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > maxBytes ? new UploadTooLargeError(maxBytes) : null, chunk);
    },
  });
  try {
    await pipeline(body, limit, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return file;
}

/** Removes uploads older than `days`. */
export async function removeOldUploads(dir: string, days: number, now = Date.now()): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > days * 86_400_000) await rm(path, { force: true });
  }
}
