import { findOperation, type Operation } from './catalog.js';
import { type Listing } from '../config/index.js';
import { OperationNotInListingError, UnknownOperationError } from './operation-errors.js';

/** The operation with this id, provided the configured listing has it; throws otherwise. */
export function resolveOperation(operationId: string, listing: Listing): Operation {
  const operation = findOperation(operationId);
  if (!operation) throw new UnknownOperationError(operationId);
  if (!operation.listings.includes(listing)) {
    throw new OperationNotInListingError(operationId, listing, operation.listings);
  }
  return operation;
}
