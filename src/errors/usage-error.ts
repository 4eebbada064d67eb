import { FerryError } from './ferry-error.js';

/** Bad command-line usage: unknown flag, missing argument. Exit code 2. */
export class UsageError extends FerryError {
  readonly code = 'FERRY_USAGE';
  override readonly exitCode = 2;
}
