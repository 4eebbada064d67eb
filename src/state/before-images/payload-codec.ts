/**
 * How a delivered payload is kept in Redis (payload-history.ts): `<version>|<tag><bytes>`, binary.
 * Tag `j`: the payload's JSON as UTF-8; `z`: that JSON deflated (raw deflate), used when it saves
 * at least an eighth (short payloads do not compress: deflate's block header eats the gain);
 * `-`: the entity was deleted at that version (no bytes). Deflate over brotli: on payloads of a
 * few hundred bytes they save about the same, and deflate is several times faster to write
 * (bench/before-images.ts). Numbers a double cannot carry keep their digits (base/exact-json): an
 * undo sends back the amount that was there.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { parseExact, stringifyExact } from '../../base/index.js';

const BAR = 0x7c; // '|'
const JSON_TAG = 0x6a; // 'j'
const DEFLATE_TAG = 0x7a; // 'z'
const DELETED_TAG = 0x2d; // '-'
/** Below this many bytes of JSON, compressing is not tried. */
const COMPRESS_FROM = 96;

export interface KeptPayload {
  version: number;
  /** The payload; undefined when the entity was deleted at `version`. */
  payload?: unknown;
}

export function encodePayload(version: number, payload: unknown): Buffer {
  const head = Buffer.from(`${version}|`, 'latin1');
  if (payload === undefined) return Buffer.concat([head, Buffer.of(DELETED_TAG)]);
  const json = Buffer.from(stringifyExact(payload), 'utf8');
  if (json.length >= COMPRESS_FROM) {
    const packed = deflateRawSync(json);
    if (packed.length <= json.length - json.length / 8) {
      return Buffer.concat([head, Buffer.of(DEFLATE_TAG), packed]);
    }
  }
  return Buffer.concat([head, Buffer.of(JSON_TAG), json]);
}

export function decodePayload(value: Buffer): KeptPayload {
  const bar = value.indexOf(BAR);
  const version = Number(value.subarray(0, bar).toString('latin1'));
  const tag = value[bar + 1];
  const body = value.subarray(bar + 2);
  if (tag === DELETED_TAG) return { version };
  const json = tag === DEFLATE_TAG ? inflateRawSync(body) : body;
  return { version, payload: parseExact(json.toString('utf8')) };
}
