/** A minimal zip writer (deflate, no zip64) for making XLSX files in tests instead of committing them. */
import { constants, crc32, deflateRawSync } from 'node:zlib';

/** An entry packed beforehand (a bomb too large to pack here): its deflate data, size and CRC. */
export interface PackedEntry {
  deflated: Buffer;
  size: number;
  crc: number;
}

/**
 * `declaredSizes` forges the unpacked size an entry's headers state (a zip bomb that lies about
 * its size).
 */
export function zip(
  entries: Record<string, string | Buffer | PackedEntry>,
  declaredSizes: Record<string, number> = {},
): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const packed = typeof content === 'object' && 'deflated' in content ? content : pack(content);
    const compressed = packed.deflated;
    const crc = packed.crc;
    const nameBytes = Buffer.from(name, 'utf8');
    const size = declaredSizes[name] ?? packed.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // flags: names are UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(compressed.length, 20);
    entry.writeUInt32LE(size, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    parts.push(local, nameBytes, compressed);
    central.push(entry, nameBytes);
    offset += local.length + nameBytes.length + compressed.length;
  }
  const centralBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, centralBytes, end]);
}

function pack(content: string | Buffer): PackedEntry {
  const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  return { deflated: deflateRawSync(data), size: data.length, crc: crc32(data) };
}

/**
 * `repeat` copies of `unit`, packed without ever holding them unpacked: each copy is a deflate
 * block that a full flush made independent, so the packed copies can simply follow each other.
 */
export function packRepeated(
  head: string,
  unit: Buffer,
  repeat: number,
  tail: string,
): PackedEntry {
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const first = deflateRawSync(Buffer.from(head), flush);
  const block = deflateRawSync(unit, flush);
  const last = deflateRawSync(Buffer.from(tail));
  let crc = crc32(head);
  for (let i = 0; i < repeat; i++) crc = crc32(unit, crc);
  crc = crc32(tail, crc);
  return {
    deflated: Buffer.concat([first, ...Array.from({ length: repeat }, () => block), last]),
    size: Buffer.byteLength(head) + unit.length * repeat + Buffer.byteLength(tail),
    crc,
  };
}
