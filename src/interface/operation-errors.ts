import { FerryError } from '../errors/index.js';
import type { Listing } from '../config/index.js';

/** An operation id that is not in the catalog at all. */
export class UnknownOperationError extends FerryError<'FERRY_OPERATION_UNKNOWN'> {
  readonly code = 'FERRY_OPERATION_UNKNOWN';
  override readonly exitCode = 2;
  constructor(operationId: string) {
    super(
      `Unknown operation "${operationId}". Run \`ferry operations\` to list the operation ids.`,
      {
        operationId,
      },
    );
  }
}

/** An operation that exists in the catalog but not in the configured listing. */
export class OperationNotInListingError extends FerryError<'FERRY_OPERATION_NOT_IN_LISTING'> {
  readonly code = 'FERRY_OPERATION_NOT_IN_LISTING';
  override readonly exitCode = 2;
  constructor(operationId: string, listing: Listing, listings: readonly Listing[]) {
    super(
      `Operation "${operationId}" is not in listing ${listing} (it is in listing ${listings.join(' and ')}). ` +
        `Set interface.listing (or FERRY_LISTING) to a listing that has it.`,
      { operationId, listing },
    );
  }
}

/** An operation of the listing that the platform's description does not declare. */
export class OperationNotDescribedError extends FerryError<'FERRY_OPERATION_NOT_IN_LISTING'> {
  readonly code = 'FERRY_OPERATION_NOT_IN_LISTING';
  override readonly exitCode = 2;
  constructor(operationId: string, source: string) {
    super(
      `Operation "${operationId}" is not in the platform's description (${source}): the platform ` +
        'does not offer it, so nothing was sent. `ferry interface check` lists what it describes.',
      { operationId, source },
    );
  }
}
