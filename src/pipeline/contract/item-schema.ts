/**
 * The schema of one item an entity's operation carries, as the description states it: an items
 * body's array items (in its envelope, if any), or the whole body of an operation that writes one
 * entity. Undefined when the description's body is neither.
 */
import {
  type DescribedOperation,
  type Schema,
  isSchemaObject,
  itemsArrayOf,
} from '../../interface/index.js';
import type { OperationRef } from '../definition/definition-types.js';

export function itemSchemaOf(ref: OperationRef, op: DescribedOperation): Schema | undefined {
  if (ref.binding.body === 'items' || ref.operation.kind === 'delete') {
    const body = itemsArrayOf(op.requestSchema);
    return body && isSchemaObject(body.array.items) ? body.array.items : undefined;
  }
  return op.requestSchema;
}
