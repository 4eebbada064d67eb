/**
 * Bytes -> text, streamed. The encoding comes from a byte-order mark, else the option, else an
 * encoding the format declares (XML), else the evidence of the bytes: valid multi-byte UTF-8
 * sequences against bytes that cannot be UTF-8, so that one stray byte does not decide for a
 * whole file. ASCII reads the same in every candidate, so all-ASCII text is passed on at once and
 * the decision waits for enough non-ASCII evidence (holding at most MAX_UNDECIDED_BYTES).
 *
 * With `invalidBytes: 'escape'`, a byte that is not valid UTF-8 in a UTF-8 input becomes a lone
 * low surrogate (see ESCAPE_BASE) for the connector to reject the record holding it; with
 * `'fail'` it ends the reading with an error naming the offset.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { fixWindows1252 } from './windows-1252.js';
import type { ReadMeta } from '../types.js';
import { ConnectorError } from '../errors.js';
import {
  completeUtf8Length,
  decodeUtf8Escaping,
  detectBom,
  encodingFromEvidence,
  weighUtf8,
  type TextEncoding,
  type Utf8Evidence,
} from './encoding.js';
import { rejectNonText } from './non-text.js';

const HEAD_BYTES = 64 * 1024;
/** Non-ASCII sequences (valid or not) that are enough to decide on. */
const DECISIVE_EVIDENCE = 16;
/** Bytes held back while the evidence is too thin to decide; then the evidence so far decides. */
const MAX_UNDECIDED_BYTES = 4 * 1024 * 1024;

export interface DecodeOptions {
  /** Name of the input, for errors. */
  name: string;
  encoding: 'auto' | TextEncoding;
  /**
   * Receives `encoding`, `encodingSource` (bom, option, declared, detected), when detected
   * `encodingEvidence` ({multiByte, invalid}: what the decision was made on), and when a
   * byte-order mark overruled the encoding option, `encodingOptionOverruled` (the option's value).
   */
  meta: ReadMeta;
  /** An encoding the format itself declares in its first bytes (the XML declaration). */
  declared?: (head: Buffer) => TextEncoding | undefined;
  /** What a byte that is not valid UTF-8 does in UTF-8 input (default fail). */
  invalidBytes?: 'escape' | 'fail';
}

function toBuffer(chunk: unknown): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
}

class StreamDecoder {
  private decoder: TextDecoder | undefined;
  private escaping = false;
  private offset = 0;
  /** The decided UTF-8 decoder's bytes of a sequence cut by the chunk boundary. */
  private carry: Buffer | undefined;
  /** Undecided: bytes held back, and the evidence counted in them. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private heldTail: Buffer | undefined;
  private readonly evidence: Utf8Evidence = { multiByte: 0, invalid: 0 };

  constructor(
    private readonly name: string,
    private readonly meta: ReadMeta,
    encoding: TextEncoding | undefined,
    private readonly invalidBytes: 'escape' | 'fail',
  ) {
    if (encoding) this.choose(encoding);
  }

  private choose(encoding: TextEncoding): void {
    this.meta.encoding = encoding;
    this.escaping = encoding === 'utf-8' && this.invalidBytes === 'escape';
    if (!this.escaping) this.decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  }

  private get decided(): boolean {
    return this.escaping || this.decoder !== undefined;
  }

  decode(chunk: Buffer): string {
    if (this.decided) return this.decodeDecided(chunk);
    if (this.heldBytes === 0 && isAscii(chunk)) {
      this.offset += chunk.length;
      return chunk.toString('latin1');
    }
    this.hold(chunk);
    const e = this.evidence;
    if (e.multiByte + e.invalid < DECISIVE_EVIDENCE && this.heldBytes < MAX_UNDECIDED_BYTES)
      return '';
    return this.decideAndRelease();
  }

  end(): string {
    let text = this.decided ? '' : this.decideAndRelease();
    if (this.escaping) {
      if (this.carry) text += decodeUtf8Escaping(this.carry, 0, this.carry.length);
      this.carry = undefined;
      return text;
    }
    return text + this.run(() => this.decoder!.decode(), 0);
  }

  private hold(chunk: Buffer): void {
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    const bytes = this.heldTail ? Buffer.concat([this.heldTail, chunk]) : chunk;
    const complete = completeUtf8Length(bytes);
    weighUtf8(bytes.subarray(0, complete), this.evidence);
    this.heldTail = complete < bytes.length ? Buffer.from(bytes.subarray(complete)) : undefined;
  }

  private decideAndRelease(): string {
    if (this.heldTail) this.evidence.invalid += this.heldTail.length; // cut off by the end
    this.choose(encodingFromEvidence(this.evidence) ?? 'utf-8');
    this.meta.encodingEvidence = { ...this.evidence };
    const held = Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    return held.length > 0 ? this.decodeDecided(held) : '';
  }

  private decodeDecided(chunk: Buffer): string {
    if (!this.escaping) {
      return this.run(() => this.decoder!.decode(chunk, { stream: true }), chunk.length);
    }
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    const complete = completeUtf8Length(bytes);
    this.carry = complete < bytes.length ? Buffer.from(bytes.subarray(complete)) : undefined;
    const valid = bytes.subarray(0, complete);
    return isUtf8(valid) ? valid.toString('utf8') : decodeUtf8Escaping(valid, 0, valid.length);
  }

  private run(decode: () => string, length: number): string {
    try {
      const decoded = decode();
      this.offset += length;
      return this.meta.encoding === 'windows-1252' ? fixWindows1252(decoded) : decoded;
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
    if (bom) head = head.subarray(bom.length);
    rejectNonText(head, name, bom?.encoding ?? given);

    let encoding: TextEncoding | undefined;
    // A byte-order mark wins over the option, as in browsers: read in the option's encoding, a
    // UTF-8 mark would become "ï»¿" before the first column's name, and a UTF-16 file garbage.
    if (bom) {
      [encoding, meta.encodingSource] = [bom.encoding, 'bom'];
      if (given && given !== bom.encoding) meta.encodingOptionOverruled = given;
    } else if (given) [encoding, meta.encodingSource] = [given, 'option'];
    else {
      encoding = options.declared?.(head);
      meta.encodingSource = encoding ? 'declared' : 'detected';
      meta.encoding = encoding ?? 'utf-8';
    }
    const decoder = new StreamDecoder(name, meta, encoding, options.invalidBytes ?? 'fail');
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
