import { FerryError } from '../../errors/index.js';

/**
 * The platform's OpenAPI description cannot be read, is not OpenAPI 3.0/3.1, or has a `$ref` that
 * leads nowhere. Names the source (file or URL) and the JSON pointer of the offending place. Exit 2.
 */
export class OpenApiError extends FerryError<'FERRY_OPENAPI_INVALID'> {
  readonly code = 'FERRY_OPENAPI_INVALID';
  override readonly exitCode = 2;

  constructor(source: string, pointer: string, message: string) {
    super(`${source}${pointer ? ` at ${pointer}` : ''}: ${message}`, { source, pointer });
  }
}

/**
 * A `$ref` that leads outside what a description may read (docs/INTERFACE.md, Limits): another
 * folder, another origin, another scheme. Refused before anything is read. Exit 2.
 */
export class OpenApiRefRefusedError extends FerryError<'FERRY_OPENAPI_REF_REFUSED'> {
  readonly code = 'FERRY_OPENAPI_REF_REFUSED';
  override readonly exitCode = 2;

  constructor(source: string, pointer: string, ref: string, why: string) {
    super(`${source}${pointer ? ` at ${pointer}` : ''}: $ref "${ref}" refused, not read: ${why}`, {
      source,
      pointer,
      ref,
    });
  }
}

/**
 * Reading or resolving a description went past one of its budgets (time, memory, size, documents,
 * depth). Exit 2.
 */
export class OpenApiBudgetError extends FerryError<'FERRY_OPENAPI_BUDGET'> {
  readonly code = 'FERRY_OPENAPI_BUDGET';
  override readonly exitCode = 2;

  constructor(source: string, budget: string, message: string) {
    super(`${source}: ${message}`, { source, pointer: '', budget });
  }
}

/** Ctrl-C or SIGTERM while a description was being read: nothing was used of it. Exit 4. */
export class OpenApiStoppedError extends FerryError<'FERRY_OPENAPI_STOPPED'> {
  readonly code = 'FERRY_OPENAPI_STOPPED';
  override readonly exitCode = 4;

  constructor(source: string) {
    super(`${source}: stopped (Ctrl-C or SIGTERM) while the description was being read`, {
      source,
      pointer: '',
    });
  }
}
