/**
 * A tick of a pipeline whose source is a URL: fetched with If-None-Match / If-Modified-Since from
 * the last read, so an export that did not change is a skipped run "no new export" instead of a
 * download and a plan. A changed one is saved to a temporary file, planned, and removed; its
 * validators are kept once its run started.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline as pipe } from 'node:stream/promises';
import { SourceUnchangedError, type Validators, openUrl } from '../../connectors/index.js';
import { isFerryError } from '../errors/index.js';
import { recordSkip, skipReason, startOrSkip, type TickContext } from './tick-run.js';

function conditionalHeaders(last: Validators): Record<string, string> {
  const headers: Record<string, string> = {};
  if (last.etag) headers['if-none-match'] = last.etag;
  if (last.lastModified) headers['if-modified-since'] = last.lastModified;
  return headers;
}

export async function fetchIfChanged(ctx: TickContext, url: string): Promise<void> {
  const stored = await ctx.redis.hget(ctx.keys.sourceValidators, ctx.pipeline);
  const last = stored ? (JSON.parse(stored) as Validators) : {};
  let opened;
  try {
    opened = await openUrl({ url, headers: conditionalHeaders(last) }, { signal: ctx.signal });
  } catch (error) {
    if (error instanceof SourceUnchangedError) {
      await recordSkip(ctx, `no new export: ${error.message}`);
      return;
    }
    if (!isFerryError(error)) throw error;
    await recordSkip(ctx, skipReason(error));
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'ferry-export-'));
  // The URL's file name keeps its extension, which chooses the connector.
  const file = join(dir, basename(new URL(url).pathname) || 'export');
  try {
    await pipe(opened.stream, createWriteStream(file));
    const outcome = await startOrSkip(ctx, file, opened.name);
    if ('runId' in outcome && opened.validators) {
      await ctx.redis.hset(
        ctx.keys.sourceValidators,
        ctx.pipeline,
        JSON.stringify(opened.validators),
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
