/** Opens the drop of an SFTP or S3 spec, and reads its files one after the other. */
import { SourceError } from '../errors.js';
import type { RemoteDrop, S3Spec, SftpSpec } from './remote-types.js';
import { S3Drop } from './s3.js';
import { SftpDrop } from './sftp.js';
import type { OpenedSource } from './types.js';

export function openDrop(spec: { sftp: SftpSpec } | { s3: S3Spec }): RemoteDrop {
  return 'sftp' in spec ? new SftpDrop(spec.sftp) : new S3Drop(spec.s3);
}

/**
 * The matching files (or the one file) of a remote spec, in name order, on one connection that
 * is closed when the reading ends however it ends.
 */
export async function* openRemote(
  spec: { sftp: SftpSpec } | { s3: S3Spec },
): AsyncGenerator<OpenedSource> {
  const drop = openDrop(spec);
  try {
    const entries = await drop.list();
    if (entries.length === 0) {
      const pattern = 'sftp' in spec ? spec.sftp.pattern : spec.s3.pattern;
      throw new SourceError(`${drop.where} has no file matching "${pattern ?? '*'}".`, {
        source: drop.where,
      });
    }
    for (const entry of entries) {
      const name = drop.nameOf(entry);
      yield { name, stream: drop.open(entry), hint: entry.name };
    }
  } finally {
    await drop.close();
  }
}
