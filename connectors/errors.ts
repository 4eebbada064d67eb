/**
 * Errors of reading: a source that cannot be opened (FERRY_SOURCE), bytes that are not what the
 * connector and its options say (FERRY_CONNECTOR), an input with no record at all
 * (FERRY_NO_RECORDS), a connector name nobody registered (FERRY_CONNECTOR_UNKNOWN). A record that cannot be read is not an error here: it is a RowError
 * item, and reading goes on.
 */
import { FerryError, type InputDetails } from '../src/errors/index.js';

type InputCode =
  | 'FERRY_CONNECTOR'
  | 'FERRY_NO_RECORDS'
  | 'FERRY_SOURCE'
  | 'FERRY_SOURCE_UNCHANGED'
  | 'FERRY_CONNECTOR_UNKNOWN'
  | 'FERRY_SOURCE_UNREACHABLE'
  | 'FERRY_SOURCE_HOST_KEY';

/** An error about an input, its details (file, line, field...) optional. */
abstract class InputError extends FerryError<InputCode> {
  constructor(message: string, details: InputDetails = {}, options?: ErrorOptions) {
    super(message, details, options);
  }
}

/** The input is not what the connector and its options say (XML given to csv, a truncated array). */
export class ConnectorError extends InputError {
  readonly code = 'FERRY_CONNECTOR';
}

/** An input gave no record at all: never read as a silent success (it would delete a catalog). */
export class NoRecordsError extends InputError {
  readonly code = 'FERRY_NO_RECORDS';
}

/** A source could not be opened or read to its end (URL answered 500 after retries, I/O error). */
export class SourceError extends InputError {
  readonly code = 'FERRY_SOURCE';
}

/**
 * A URL fetched with If-None-Match / If-Modified-Since answered 304 Not Modified: nothing new to
 * read (a schedule's tick then skips).
 */
export class SourceUnchangedError extends InputError {
  readonly code = 'FERRY_SOURCE_UNCHANGED';
}

/** A source that is not there (no such file or folder): the operator named it wrong. Exit code 2. */
export class SourceNotFoundError extends SourceError {
  override readonly exitCode = 2;
}

/** A connector name nobody registered. Exit code 2. */
export class UnknownConnectorError extends InputError {
  readonly code = 'FERRY_CONNECTOR_UNKNOWN';
  override readonly exitCode = 2;
}

/**
 * A remote source (SFTP server, S3 endpoint) did not answer, or dropped the connection more often
 * than its retries allow. Exit code 5, as for an unreachable Redis or platform: try again later.
 */
export class SourceUnreachableError extends InputError {
  readonly code = 'FERRY_SOURCE_UNREACHABLE';
  override readonly exitCode = 5;
}

/**
 * An SFTP server presented a host key other than the configured `hostKey`: nothing was read or
 * sent. The message names the fingerprint it saw (never a secret). Exit code 2: the operator
 * checks the server and the configuration.
 */
export class HostKeyMismatchError extends InputError {
  readonly code = 'FERRY_SOURCE_HOST_KEY';
  override readonly exitCode = 2;
}
