export { FerryError, hasCode, isFerryError } from './ferry-error.js';
export {
  ERRORS,
  ERROR_CODES,
  httpStatusOf,
  isErrorCode,
  type ErrorCode,
  type ErrorDetails,
} from './error-codes.js';
export type * from './error-details.js';
export { UsageError } from './usage-error.js';
export { ConfigError } from './config-error.js';
