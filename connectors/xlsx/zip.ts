/** The few zip operations the xlsx connector needs, over yauzl (random access, lazy entries). */
import type { Readable } from 'node:stream';
import { openPromise, type Entry, type ZipFile } from 'yauzl';
import { ConnectorError } from '../errors.js';

export interface ZipArchive {
  has(name: string): boolean;
  /** The entry's uncompressed bytes, streamed. */
  open(name: string): Promise<Readable>;
  close(): void;
}

export async function openZip(path: string, name: string): Promise<ZipArchive> {
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
    has: (entryName) => entries.has(entryName),
    async open(entryName) {
      const entry = entries.get(entryName);
      if (!entry) {
        throw new ConnectorError(`${name}: the workbook has no part ${entryName}.`, { file: name });
      }
      return zip.openReadStreamPromise(entry);
    },
    close: () => zip.close(),
  };
}
