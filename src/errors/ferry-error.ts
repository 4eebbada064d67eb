import type { ErrorCode, ErrorDetails } from './error-codes.js';

/**
 * The root of Ferry's error hierarchy. Every error Ferry raises on purpose is a FerryError with a
 * stable `code` (error-codes.ts, where each code declares its HTTP status and its details' type);
 * callers decide by code (or `instanceof`), never by message text.
 * Messages and details must never carry secrets: build them from names, paths and counts.
 */
export abstract class FerryError<C extends ErrorCode = ErrorCode> extends Error {
  abstract readonly code: C;
  /** Process exit code a CLI command should end with when this error escapes it. */
  readonly exitCode: number = 1;
  readonly details: Readonly<ErrorDetails<C>>;

  constructor(message: string, details: ErrorDetails<C>, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.details = details;
  }

  toJSON(): Record<string, unknown> {
    return { code: this.code, message: this.message, ...this.details };
  }
}

export function isFerryError(value: unknown): value is FerryError {
  return value instanceof FerryError;
}

/** Narrows an error to one code, its details typed by that code. */
export function hasCode<C extends ErrorCode>(value: unknown, code: C): value is FerryError<C> {
  return value instanceof FerryError && value.code === code;
}
