/** The few zip operations the xlsx connector needs, over yauzl (random access, lazy entries). */
import type { Readable } from 'node:stream';
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import { ConnectorError } from '../errors.js';

export interface ZipArchive {
  /** The workbook's name in messages. */
  readonly name: string;
  readonly limits: WorkbookLimits;
  has(name: string): boolean;
  /** The entry's uncompressed bytes, streamed. */
  open(name: string): Promise<Readable>;
  close(): void;
}

/** What a part may unpack to and hold; see the xlsx options of the same names. */
export interface WorkbookLimits {
  maxPartBytes: number;
  maxCompressionRatio: number;
  maxFieldBytes: number;
}

/** Below this a part's ratio does not matter: a small part cannot exhaust anything. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/** Refuses a part by the sizes its zip entry declares (yauzl holds the stream to them). */
function checkSizes(entry: Entry, limits: WorkbookLimits, name: string): void {
  const unpacked = entry.uncompressedSize;
  const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (unpacked > limits.maxPartBytes) {
    throw new ConnectorError(
      `${name}: the workbook part ${entry.fileName} unpacks to ${mib(unpacked)}, more than ` +
        `maxPartBytes (${mib(limits.maxPartBytes)}): refused before unpacking. Raise the ` +
        'xlsx option maxPartBytes if the workbook is really this large.',
      { file: name, part: entry.fileName },
    );
  }
  const ratio = unpacked / Math.max(1, entry.compressedSize);
  if (unpacked > RATIO_FLOOR_BYTES && ratio > limits.maxCompressionRatio) {
    throw new ConnectorError(
      `${name}: the workbook part ${entry.fileName} unpacks from ${mib(entry.compressedSize)} ` +
        `to ${mib(unpacked)} (${Math.round(ratio)} times), more than maxCompressionRatio ` +
        `(${limits.maxCompressionRatio}): refused as a zip bomb before unpacking.`,
      { file: name, part: entry.fileName },
    );
  }
}

export async function openZip(
  path: string,
  name: string,
  limits: WorkbookLimits,
): Promise<ZipArchive> {
  let zip: ZipFile;
  const entries = new Map<string, Entry>();
  try {
    zip = await openPromise(path, { lazyEntries: true, autoClose: false });
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, entry);
  } catch (error) {
    throw new ConnectorError(
      `${name} is not an XLSX workbook (it cannot be read as a zip archive: ${(error as Error).message}).`,
      { file: name },
    );
  }
  return {
    name,
    limits,
    has: (entryName) => entries.has(entryName),
    async open(entryName) {
      const entry = entries.get(entryName);
      if (!entry) {
        throw new ConnectorError(`${name}: the workbook has no part ${entryName}.`, { file: name });
      }
      checkSizes(entry, limits, name);
      return zip.openReadStreamPromise(entry);
    },
    close: () => zip.close(),
  };
}
