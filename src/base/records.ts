/**
 * What connectors read and every later stage refers to: a record with the file and line it came
 * from, and a record that could not be read or mapped.
 */

/** Where a record came from: the file (or `stdin`, or a URL) and the physical line it starts on. */
export interface SourceRef {
  file: string;
  line: number;
}

/** One record as a connector read it: header name -> raw string value. */
export interface SourceRecord {
  fields: Record<string, string>;
  source: SourceRef;
}

/** A record that could not be read or mapped. Names the file, line and field, and what was expected. */
export interface RowError {
  file: string;
  line: number;
  field?: string;
  /** The JSON pointer in the payload, when the payload broke the platform's request schema. */
  path?: string;
  message: string;
  /** The record's key, when it was read before the record was rejected (for the entity trace). */
  key?: string;
}
