/**
 * Bytes -> text, streamed. The encoding comes from the option, else a byte-order mark, else an
 * encoding the format declares (XML), else the bytes: the first 64 KiB are sniffed, and when they
 * are all ASCII the decision waits for the first chunk that is not, so a file whose first
 * non-ASCII letter comes late is still read right (everything before it was ASCII, which reads the
 * same in every candidate encoding). Memory stays at one chunk whatever the input's size.
 */
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import type { ReadMeta } from '../types.js';
import { ConnectorError } from '../errors.js';
import { detectBom, sniffEncoding, type TextEncoding } from './encoding.js';

const HEAD_BYTES = 64 * 1024;

export interface DecodeOptions {
  /** Name of the input, for errors. */
  name: string;
  encoding: 'auto' | TextEncoding;
  /** Receives `encoding` and `encodingSource` (bom, option, declared, detected). */
  meta: ReadMeta;
  /** An encoding the format itself declares in its first bytes (the XML declaration). */
  declared?: (head: Buffer) => TextEncoding | undefined;
}

function toBuffer(chunk: unknown): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
}

/** A clear error for bytes that are plainly not text, instead of pages of mojibake. */
function rejectNonText(head: Buffer, name: string, encoding: TextEncoding | undefined): void {
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    throw new ConnectorError(
      `${name} is a zip archive (an XLSX workbook?), not text: read it with the xlsx connector.`,
      { file: name },
    );
  }
  if (head[0] === 0x1f && head[1] === 0x8b) {
    throw new ConnectorError(`${name} is gzip-compressed: decompress it first.`, { file: name });
  }
  if (encoding?.startsWith('utf-16')) return;
  const nul = head.indexOf(0);
  if (nul !== -1) {
    throw new ConnectorError(
      `${name} holds a NUL byte at offset ${nul}: it is binary, not text, or UTF-16 without a ` +
        'byte-order mark (then give the option encoding=utf-16le or utf-16be).',
      { file: name },
    );
  }
}

class StreamDecoder {
  private decoder: TextDecoder | undefined;
  private offset = 0;

  constructor(
    private readonly name: string,
    private readonly meta: ReadMeta,
    encoding: TextEncoding | undefined,
  ) {
    if (encoding) this.choose(encoding);
  }

  private choose(encoding: TextEncoding): void {
    this.decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
    this.meta.encoding = encoding;
  }

  decode(chunk: Buffer): string {
    if (!this.decoder) {
      const sniffed = sniffEncoding(chunk);
      if (!sniffed) {
        this.offset += chunk.length;
        return chunk.toString('latin1');
      }
      this.choose(sniffed);
    }
    return this.run(() => this.decoder!.decode(chunk, { stream: true }), chunk.length);
  }

  end(): string {
    return this.decoder ? this.run(() => this.decoder!.decode(), 0) : '';
  }

  private run(decode: () => string, length: number): string {
    try {
      const text = decode();
      this.offset += length;
      return text;
    } catch {
      throw new ConnectorError(
        `${this.name} is not valid ${this.meta.encoding} (an invalid byte sequence after byte ` +
          `${this.offset}): give the option encoding (e.g. encoding=windows-1252) that the file is in.`,
        { file: this.name, encoding: this.meta.encoding },
      );
    }
  }
}

export async function* decodeText(
  stream: Readable,
  options: DecodeOptions,
): AsyncGenerator<string> {
  const { name, meta } = options;
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    while (size < HEAD_BYTES) {
      const next = await it.next();
      if (next.done) {
        ended = true;
        break;
      }
      const chunk = toBuffer(next.value);
      chunks.push(chunk);
      size += chunk.length;
    }
    let head = Buffer.concat(chunks, size);
    const given = options.encoding === 'auto' ? undefined : options.encoding;
    const bom = detectBom(head);
    if (bom && (!given || given === bom.encoding)) head = head.subarray(bom.length);
    rejectNonText(head, name, given ?? bom?.encoding);

    let encoding: TextEncoding | undefined;
    if (given) [encoding, meta.encodingSource] = [given, 'option'];
    else if (bom) [encoding, meta.encodingSource] = [bom.encoding, 'bom'];
    else {
      encoding = options.declared?.(head);
      meta.encodingSource = encoding ? 'declared' : 'detected';
      // All-ASCII so far reads as UTF-8; a later chunk may still show Windows-1252.
      encoding ??= sniffEncoding(head) ?? (ended ? 'utf-8' : undefined);
      meta.encoding = encoding ?? 'utf-8';
    }
    const decoder = new StreamDecoder(name, meta, encoding);
    const first = decoder.decode(head);
    if (first) yield first;
    while (!ended) {
      const next = await it.next();
      if (next.done) break;
      const text = decoder.decode(toBuffer(next.value));
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
  } finally {
    await it.return?.();
  }
}
