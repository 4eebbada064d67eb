/**
 * Remote sources: files on an SFTP server, objects in an S3 bucket. Both are read through a
 * RemoteDrop: one connection for a run, a listing, resumable streams, and the moves a schedule's
 * pickup makes after a run.
 */
import type { Readable } from 'node:stream';

export interface SftpSpec {
  host: string;
  port?: number;
  username: string;
  password?: string;
  privateKey?: string;
  passphrase?: string;
  /** The server's public key ("ssh-ed25519 AAAA...") or its fingerprint ("SHA256:..."). */
  hostKey: string;
  /** A file; with `pattern`, a folder. */
  path: string;
  pattern?: string;
}

export interface S3Spec {
  bucket: string;
  prefix?: string;
  pattern?: string;
  /** One object (an s3:// address): read alone, whatever prefix and pattern say. */
  key?: string;
  endpoint?: string;
  region?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
}

/** A file or object found in the drop. */
export interface RemoteEntry {
  /** Its name within its folder (what patterns match). */
  name: string;
  /** Its full path on the server, or its key in the bucket. */
  path: string;
  size: number;
  /** Modification time (SFTP: whole seconds; S3: LastModified). */
  mtimeMs: number;
  /** S3's ETag: a read resumed after a lost connection must get the same object. */
  etag?: string;
}

export interface RemoteDrop {
  /** The drop as messages show it: sftp://user@host:port/path or s3://bucket/prefix. */
  readonly where: string;
  /** Whether the spec names a set of files (a folder and pattern) rather than one file. */
  readonly many: boolean;
  /** The matching files, in name order; the one file when the spec names a file. */
  list(): Promise<RemoteEntry[]>;
  /** A file as records and runs name it (no credentials). */
  nameOf(entry: RemoteEntry): string;
  /**
   * Its bytes, streamed; a connection lost midway is reconnected and the read goes on from the
   * last byte received, as long as the file has not changed.
   */
  open(entry: RemoteEntry): Readable;
  /** Size and mtime (and ETag) now; undefined when it is gone. */
  stat(entry: RemoteEntry): Promise<RemoteEntry | undefined>;
  /**
   * Moves the file into `folder` (relative to its own folder, created when missing); a name
   * already there gets the time appended. Returns the new path or key.
   */
  move(entry: RemoteEntry, folder: string, now?: Date): Promise<string>;
  close(): Promise<void>;
}

/** The suffix a moved file gets when its name is already taken in the target folder. */
export function timeSuffix(now: Date): string {
  return `.${now.toISOString().replace(/[-:.]/g, '')}`;
}
