/**
 * The connector contract. A connector turns a byte stream into SourceRecords; it knows nothing of
 * pipelines, queues or the interface. Its options are one zod schema (define-connector.ts): it
 * checks them at start, the generated docs are made from it, and the options `read` receives
 * are typed by it.
 */
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { RowError, SourceRecord } from '../src/base/index.js';

/** What a connector reads: records, or errors for records it could not read (the others go on). */
export type ReadItem = { record: SourceRecord } | { error: RowError };

/** What the connector found out about the input (shown by `ferry read`). */
export interface ReadMeta {
  encoding?: string;
  delimiter?: string;
  header?: string[];
  [key: string]: unknown;
}

export interface ConnectorInput {
  /** The bytes. */
  stream: Readable;
  /** Name used in records and errors: a path, `stdin` or a URL without credentials. */
  name: string;
  /**
   * The local file the bytes come from, when there is one: a format that needs random access
   * (xlsx, a zip archive) reads it in place instead of copying the stream to a temporary file.
   */
  path?: string;
}

/** Reads one input with options already checked. `meta` is filled in before the first item. */
export type ConnectorReader = (input: ConnectorInput, meta: ReadMeta) => AsyncIterable<ReadItem>;

/** What a connector says about itself: for choosing it, and for the generated docs. */
export interface ConnectorAbout {
  name: string;
  description: string;
  /** File extensions this connector reads by default (lower case, with the dot). */
  extensions: readonly string[];
  /**
   * HTTP media types (without parameters) it reads, for URLs and uploads; an entry starting with
   * `+` is a structured-syntax suffix (`+xml` claims `application/atom+xml`).
   */
  mediaTypes: readonly string[];
  /** Paragraphs for the generated docs (docs/CONNECTORS.md): what a record is, edge cases. */
  notes?: readonly string[];
}

export interface Connector extends ConnectorAbout {
  /**
   * Its options, each with `.meta({description, example?, secret?})`: validation, docs and the
   * type its reader gets.
   */
  options: z.ZodObject;
  /**
   * Checks `options` (typed as YAML gives them, or as text) and returns a reader bound to them;
   * bad options throw a ConfigError naming each by `path`. `source` says where they came from.
   */
  reader(
    options: Record<string, unknown> | undefined,
    path: string,
    source?: string,
  ): ConnectorReader;
}
