/**
 * The root of Ferry's error hierarchy. Every error Ferry raises on purpose is a FerryError with a
 * stable `code`; callers decide by code (or `instanceof`), never by message text.
 * Messages and details must never carry secrets: build them from names, paths and counts.
 */
export abstract class FerryError extends Error {
  abstract readonly code: ErrorCode;
  /** Process exit code a CLI command should end with when this error escapes it. */
  readonly exitCode: number = 1;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(message: string, details: Record<string, unknown> = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.details = details;
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

/** Every stable code, in one place, so that a code is never reused with another meaning. */
export const ERROR_CODES = [
  // usage and configuration (exit 2)
  'FERRY_USAGE',
  'FERRY_CONFIG_INVALID',
  'FERRY_OPERATION_NOT_IN_LISTING',
  'FERRY_OPERATION_UNKNOWN',
  // interface (HTTP) outcomes
  'FERRY_HTTP_TRANSIENT',
  'FERRY_HTTP_IN_PROGRESS',
  'FERRY_HTTP_RATE_LIMITED',
  'FERRY_HTTP_PERMANENT',
  'FERRY_HTTP_PAYLOAD_TOO_LARGE',
  'FERRY_HTTP_AUTH',
  'FERRY_NETWORK',
  'FERRY_TIMEOUT',
  // input reading and mapping
  'FERRY_INPUT_INVALID',
  'FERRY_CONNECTOR',
  'FERRY_SOURCE',
  'FERRY_SOURCE_UNCHANGED',
  // planning and delivery
  'FERRY_MASS_DELETE_GUARD',
  'FERRY_RUN_ACTIVE',
  'FERRY_RETRY_BUDGET_EXHAUSTED',
  'FERRY_STALE',
  'FERRY_REDIS_UNAVAILABLE',
  // connectors (appended)
  'FERRY_CONNECTOR_UNKNOWN',
  // delivery (appended)
  'FERRY_DELIVERY_DEFERRED',
  'FERRY_DELIVERY_FAILED',
  'FERRY_NOT_FOUND',
  'FERRY_RUN_LOCK_LOST',
  'FERRY_TRANSFORM_UNDECLARED_READ',
  'FERRY_RUN_FINISHED',
  'FERRY_NO_RECORDS',
  'FERRY_STATE_LOST',
  'FERRY_REDIS_DATA_LOST',
  'FERRY_LOOKUP',
  'FERRY_INTERRUPTED',
  'FERRY_WORKER_STOPPED',
  'FERRY_UPLOAD_TOO_LARGE',
  'FERRY_UNSUPPORTED_MEDIA_TYPE',
  // exports (appended)
  'FERRY_EXPORT_FILE_EXISTS',
  'FERRY_EXPORT_LISTING',
  'FERRY_EXPORT_RECORD',
  'FERRY_EXPORT_WRITE',
  // remote sources (appended)
  'FERRY_SOURCE_UNREACHABLE',
  'FERRY_SOURCE_HOST_KEY',
  // the breaker for platform-wide refusals (appended)
  'FERRY_DELIVERY_BLOCKED',
  'FERRY_RUN_NOT_BLOCKED',
  // the platform's OpenAPI description (appended)
  'FERRY_OPENAPI_INVALID',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isFerryError(value: unknown): value is FerryError {
  return value instanceof FerryError;
}
