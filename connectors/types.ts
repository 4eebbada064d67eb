/**
 * The connector contract. A connector turns a byte stream into SourceRecords; it knows nothing of
 * pipelines, queues or the interface. Each declares its options (type, default, example, secret) so
 * they are checked at start and its docs are generated from the declaration.
 */
import type { Readable } from 'node:stream';
import type { RowError, SourceRecord } from '../src/base/records.js';

export interface OptionDeclaration {
  type: 'string' | 'integer' | 'boolean' | 'enum';
  description: string;
  default?: string | number | boolean;
  example?: string | number | boolean;
  /** Allowed values of an enum option. */
  values?: readonly string[];
  /** A secret is never logged, reported or put into an error message. */
  secret?: boolean;
  /** The option must be given (it has no default). */
  required?: boolean;
  /** Bounds of an integer option, inclusive. */
  min?: number;
  max?: number;
}

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

export interface Connector {
  name: string;
  description: string;
  /** File extensions this connector reads by default (lower case, with the dot). */
  extensions: readonly string[];
  options: Record<string, OptionDeclaration>;
  /** Paragraphs for the generated docs (docs/CONNECTORS.md): what a record is, edge cases. */
  notes?: readonly string[];
  /**
   * Reads records. `meta` is filled in as soon as it is known (before the first record is yielded).
   * Options arrive already validated against the declaration.
   */
  read(
    input: ConnectorInput,
    options: Record<string, unknown>,
    meta: ReadMeta,
  ): AsyncIterable<ReadItem>;
}
