/**
 * Errors as the console answers them: `{error: {code, message}}` with the HTTP status that
 * the error's stable code calls for (never its message text).
 */
import type { ErrorCode } from '../errors/index.js';

const STATUS_BY_CODE: Partial<Record<ErrorCode | ConsoleCode, number>> = {
  FERRY_UNAUTHORIZED: 401,
  FERRY_FORBIDDEN: 403,
  FERRY_NOT_FOUND: 404,
  FERRY_USAGE: 400,
  FERRY_CONFIG_INVALID: 400,
  FERRY_RUN_ACTIVE: 409,
  FERRY_MASS_DELETE_GUARD: 409,
  FERRY_RUN_FINISHED: 409,
  FERRY_REDIS_UNAVAILABLE: 503,
  FERRY_UPLOAD_TOO_LARGE: 413,
  FERRY_UNSUPPORTED_MEDIA_TYPE: 415,
  FERRY_CSRF: 403,
  FERRY_LOGIN_RATE_LIMITED: 429,
};

/** Codes only the console gives (a request, not a command, went wrong). */
export type ConsoleCode =
  | 'FERRY_UNAUTHORIZED'
  | 'FERRY_FORBIDDEN'
  | 'FERRY_CSRF'
  | 'FERRY_LOGIN_RATE_LIMITED'
  | 'FERRY_INTERNAL';

export interface ErrorBody {
  error: { code: string; message: string };
}

export function httpStatusOf(code: string): number {
  return STATUS_BY_CODE[code as ErrorCode] ?? 500;
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
