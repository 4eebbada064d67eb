/**
 * The bytes of a description: a file path, or an http(s) URL fetched with undici. A URL may be read
 * conditionally (If-None-Match / If-Modified-Since from an earlier read): `notModified` then says
 * the description did not change and carries no text.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { request } from 'undici';
import { OpenApiError } from './openapi-error.js';

export interface SourceValidators {
  etag?: string;
  lastModified?: string;
}

export type SourceRead =
  { notModified: false; text: string; validators: SourceValidators } | { notModified: true };

export const isUrl = (source: string): boolean => /^https?:\/\//i.test(source);

const MAX_BYTES = 20 * 1024 * 1024;

async function readUrl(url: string, last: SourceValidators): Promise<SourceRead> {
  const headers: Record<string, string> = { accept: 'application/json, application/yaml, */*' };
  if (last.etag) headers['if-none-match'] = last.etag;
  if (last.lastModified) headers['if-modified-since'] = last.lastModified;
  let answer;
  try {
    answer = await request(url, { headers, headersTimeout: 30_000, bodyTimeout: 30_000 });
  } catch (error) {
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
  const text = await answer.body.text();
  if (text.length > MAX_BYTES) throw new OpenApiError(url, '', 'is larger than 20 MB');
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

/** Reads `source`; `last` makes a URL read conditional (a file is always read: it is hashed). */
export async function readSource(source: string, last: SourceValidators = {}): Promise<SourceRead> {
  if (isUrl(source)) return readUrl(source, last);
  try {
    const text = await readFile(resolve(source), 'utf8');
    return { notModified: false, text, validators: {} };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OpenApiError(
      source,
      '',
      code === 'ENOENT' ? 'no such file' : `cannot be read (${code})`,
    );
  }
}
