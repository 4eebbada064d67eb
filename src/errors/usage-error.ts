import type { InputDetails } from './error-details.js';
import { FerryError } from './ferry-error.js';

/** Bad command-line usage: unknown flag, missing argument. Exit code 2. */
export class UsageError extends FerryError<'FERRY_USAGE'> {
  readonly code = 'FERRY_USAGE';
  override readonly exitCode = 2;

  constructor(message: string, details: InputDetails = {}, options?: ErrorOptions) {
    super(message, details, options);
  }
}
