import type { Readable } from 'node:stream';
import type { S3Spec, SftpSpec } from './remote-types.js';

/** Where records come from. */
export type SourceSpec =
  /** `name`: what records and messages call the file instead of its path (an upload's own name). */
  | { file: string; name?: string }
  /**
   * Files of the folder whose names match `pattern` (a glob, default `*`), read in name order;
   * `name`: what records call the folder instead of its path (as the pipeline file writes it).
   */
  | { folder: string; pattern?: string; name?: string }
  /** An http(s) URL, fetched with a few retries; `headers` (e.g. Authorization) are never logged. */
  | { url: string; headers?: Record<string, string> }
  /** Files on an SFTP server (remote-types.ts), streamed over one connection. */
  | { sftp: SftpSpec }
  /** Objects in an S3 bucket (remote-types.ts), streamed. */
  | { s3: S3Spec }
  | { stdin: true };

/** One opened input: a stream of bytes and the name its records carry. */
export interface OpenedSource {
  /** A path, `stdin`, or the URL without credentials and query. */
  name: string;
  stream: Readable;
  /** The local file, when there is one. */
  path?: string;
  /** What to pick a connector by: a path or a URL's path (its extension). */
  hint: string;
  /** The media type an HTTP server gave, without parameters. */
  contentType?: string;
  /** What an HTTP server said identifies this content, for a conditional fetch next time. */
  validators?: Validators;
}

/** An HTTP answer's ETag and Last-Modified, sent back as If-None-Match and If-Modified-Since. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface SourceContext {
  /** The stream `{stdin: true}` reads (default: process.stdin). */
  stdin?: Readable;
  /** Stops a URL's retries and download. */
  signal?: AbortSignal;
  /** Retries of a URL on network errors and 5xx answers (default 3). */
  urlRetries?: number;
}
