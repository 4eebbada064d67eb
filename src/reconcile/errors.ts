/** Errors of reconciliation and state rebuilds. */
import { FerryError } from '../errors/index.js';

/**
 * The configured listing (or the platform's description) has no read operation for a resource the
 * pipeline writes (listing B has no products.get): what the platform holds cannot be compared. Exit code 2, as for any operation
 * the listing lacks.
 */
export class ResourceNotReadableError extends FerryError<'FERRY_OPERATION_NOT_IN_LISTING'> {
  readonly code = 'FERRY_OPERATION_NOT_IN_LISTING';
  override readonly exitCode = 2;
  /** `where`: the listing, or the platform's description, that lacks the read. */
  constructor(pipeline: string, resource: string, operationId: string, where: string) {
    super(
      `Pipeline "${pipeline}" writes ${resource}, but ${where} has no ${operationId}: ` +
        `what the platform holds of ${resource} cannot be read, so it cannot be reconciled or ` +
        `rebuilt. Nothing was read or changed.`,
      { pipeline, resource, operationId, where },
    );
  }
}
