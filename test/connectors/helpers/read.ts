import { Readable } from 'node:stream';
import type { Connector, ReadItem, ReadMeta } from '../../../connectors/types.js';
import type { RowError, SourceRecord } from '../../../src/base/records.js';

export interface Collected {
  records: SourceRecord[];
  errors: RowError[];
  meta: ReadMeta;
}

export async function collect(
  items: AsyncIterable<ReadItem>,
  meta: ReadMeta = {},
): Promise<Collected> {
  const records: SourceRecord[] = [];
  const errors: RowError[] = [];
  for await (const item of items) {
    if ('record' in item) records.push(item.record);
    else errors.push(item.error);
  }
  return { records, errors, meta };
}

/** A stream that gives `bytes` in chunks of `chunkSize` (to cross every chunk boundary). */
export function chunked(bytes: Buffer | string, chunkSize = 64 * 1024): Readable {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  const chunks: Buffer[] = [];
  for (let i = 0; i < buffer.length; i += chunkSize) chunks.push(buffer.subarray(i, i + chunkSize));
  return Readable.from(chunks, { objectMode: false });
}

/** Runs a connector over bytes with options (validated as a pipeline would). */
export async function readBytes(
  connector: Connector,
  bytes: Buffer | string,
  options: Record<string, unknown> = {},
  chunkSize?: number,
): Promise<Collected> {
  const meta: ReadMeta = {};
  const read = connector.reader(options, 'options');
  return collect(read({ stream: chunked(bytes, chunkSize), name: 'input.test' }, meta), meta);
}

/** Rows as `line: fields` pairs, compact for assertions. */
export function lines(records: SourceRecord[]): Array<[number, Record<string, string>]> {
  return records.map((r) => [r.source.line, r.fields]);
}
