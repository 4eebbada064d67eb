export { FerryError, ERROR_CODES, isFerryError, type ErrorCode } from './ferry-error.js';
export { UsageError } from './usage-error.js';
export { ConfigError, type ConfigIssue } from './config-error.js';
