/**
 * Errors as the console answers them: `{error: {code, message}}` with the HTTP status the error's
 * stable code declares (src/errors/error-codes.ts, a total table), never by its message text.
 */
import type { ErrorCode } from '../errors/index.js';

export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}
