/**
 * How a delivered payload is kept in Redis (payload-history.ts): `<version>|<tag><bytes>`, binary.
 * Tag `j`: the payload's JSON as UTF-8; `z`: that JSON deflated (raw deflate), for a payload of
 * COMPRESS_FROM characters or more when it saves at least an eighth; `-`: the entity was deleted at
 * that version (no bytes). Deflate over brotli: on payloads of a
 * few hundred bytes they save about the same, and deflate is several times faster to write
 * (bench/before-images.ts). Numbers a double cannot carry keep their digits (base/exact-json): an
 * undo sends back the amount that was there.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { parseExact, stringifyExact } from '../../base/index.js';

const BAR = 0x7c; // '|'
const DEFLATE_TAG = 0x7a; // 'z'
const DELETED_TAG = 0x2d; // '-'
/**
 * Below this many characters of JSON, compressing is not tried. A deflate costs ~17 µs of CPU
 * whatever the size (zlib sets up its state on every call), the largest cost of recording a
 * delivered item, and saves little on short payloads: ~20% of a catalog product's ~170 bytes.
 */
const COMPRESS_FROM = 512;

export interface KeptPayload {
  version: number;
  /** The payload; undefined when the entity was deleted at `version`. */
  payload?: unknown;
}

export function encodePayload(version: number, payload: unknown): Buffer | string {
  return payload === undefined
    ? encodeDeleted(version)
    : encodePayloadJson(version, stringifyExact(payload));
}

/** An entity deleted at `version`. */
export function encodeDeleted(version: number): string {
  return `${version}|-`;
}

/**
 * A payload kept from its JSON text as it was sent (nothing parsed or written again). A string
 * unless deflated: Redis stores the same bytes, and ioredis writes a command of strings at once.
 */
export function encodePayloadJson(version: number, json: string): Buffer | string {
  if (json.length >= COMPRESS_FROM) {
    const bytes = Buffer.from(json, 'utf8');
    const packed = deflateRawSync(bytes);
    if (packed.length <= bytes.length - bytes.length / 8) {
      return Buffer.concat([Buffer.from(`${version}|`, 'latin1'), Buffer.of(DEFLATE_TAG), packed]);
    }
  }
  return `${version}|j${json}`;
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
