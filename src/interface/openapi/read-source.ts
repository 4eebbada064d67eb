/**
 * The bytes of a description: a file path, or an http(s) URL fetched with undici. A URL may be read
 * conditionally (If-None-Match / If-Modified-Since from an earlier read): `notModified` then says
 * the description did not change and carries no text.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { request } from 'undici';
import { OpenApiBudgetError, OpenApiError, OpenApiStoppedError } from './openapi-error.js';

export interface SourceValidators {
  etag?: string;
  lastModified?: string;
}

export type SourceRead =
  { notModified: false; text: string; validators: SourceValidators } | { notModified: true };

export const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

/** The size budget of a description, its `$ref`d documents included (docs/INTERFACE.md, Limits). */
export const MAX_DESCRIPTION_BYTES = 20 * 1024 * 1024;

const tooLarge = (source: string, max: number) =>
  new OpenApiBudgetError(
    source,
    'size',
    `larger than ${Math.round(max / 1024 / 1024)} MB (the size budget of a description and the documents its $refs name); not read further`,
  );

/** The body as text, stopped (not buffered) past `max` bytes. */
async function boundedText(url: string, body: AsyncIterable<Buffer>, max: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) throw tooLarge(url, max);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readUrl(
  url: string,
  last: SourceValidators,
  max: number,
  signal?: AbortSignal,
): Promise<SourceRead> {
  const headers: Record<string, string> = { accept: 'application/json, application/yaml, */*' };
  if (last.etag) headers['if-none-match'] = last.etag;
  if (last.lastModified) headers['if-modified-since'] = last.lastModified;
  let answer;
  try {
    answer = await request(url, {
      headers,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw new OpenApiStoppedError(url);
    throw new OpenApiError(url, '', `cannot be fetched (${(error as Error).message})`);
  }
  if (answer.statusCode === 304) {
    await answer.body.dump();
    return { notModified: true };
  }
  if (answer.statusCode !== 200) {
    await answer.body.dump();
    throw new OpenApiError(url, '', `answered HTTP ${answer.statusCode}, expected 200`);
  }
  const length = Number(answer.headers['content-length']);
  if (length > max) {
    answer.body.destroy();
    throw tooLarge(url, max);
  }
  const text = await boundedText(url, answer.body, max)
    .catch((error: unknown) => {
      throw signal?.aborted ? new OpenApiStoppedError(url) : error;
    })
    .finally(() => answer.body.destroy());
  const header = (name: string) => {
    const value = answer.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const validators: SourceValidators = {};
  const etag = header('etag');
  const lastModified = header('last-modified');
  if (etag) validators.etag = etag;
  if (lastModified) validators.lastModified = lastModified;
  return { notModified: false, text, validators };
}

async function readFileBounded(source: string, max: number): Promise<string> {
  let file;
  try {
    file = await open(resolve(source), 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OpenApiError(
      source,
      '',
      code === 'ENOENT' ? 'no such file' : `cannot be read (${code})`,
    );
  }
  try {
    const { size } = await file.stat();
    if (size > max) throw tooLarge(source, max);
    return await boundedText(source, file.createReadStream({ autoClose: false }), max);
  } catch (error) {
    if (error instanceof OpenApiBudgetError) throw error;
    throw new OpenApiError(source, '', `cannot be read (${(error as NodeJS.ErrnoException).code})`);
  } finally {
    await file.close();
  }
}

/**
 * Reads `source`; `last` makes a URL read conditional (a file is always read: it is hashed). More
 * than `max` bytes is an OpenApiBudgetError, found before they are held; `signal` stops a fetch.
 */
export async function readSource(
  source: string,
  last: SourceValidators = {},
  max = MAX_DESCRIPTION_BYTES,
  signal?: AbortSignal,
): Promise<SourceRead> {
  if (isUrl(source)) return readUrl(source, last, max, signal);
  const text = await readFileBounded(source, max);
  return { notModified: false, text, validators: {} };
}
