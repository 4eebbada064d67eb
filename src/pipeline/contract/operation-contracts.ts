/**
 * The item contract of each operation the platform's description states (compiled once per
 * operation, on first use): what planned payloads (payload-contract.ts) and edited ones (a dead
 * letter's replay) are checked against. Undefined without a description.
 */
import type { FerryConfig } from '../../config/index.js';
import {
  type CatalogMatch,
  createSchemaCompiler,
  describedOperations,
  descriptionOf,
  type ItemContract,
  matchCatalog,
} from '../../interface/index.js';
import type { OperationRef } from '../definition/definition-types.js';
import { itemSchemaOf } from './item-schema.js';

/** The operation's contract; undefined for a delete (its items are keys) or one not described. */
export type OperationContracts = (ref: OperationRef) => ItemContract | undefined;

/** The description's operations matched to the catalog, and its schema compiler. */
export interface DescribedContext {
  match: CatalogMatch;
  compile: ReturnType<typeof createSchemaCompiler>;
}

/** The description the config's bindings came from (the pinned one where there is a pin). */
export async function describedContext(config: FerryConfig): Promise<DescribedContext | undefined> {
  const description = await descriptionOf(config);
  if (!description) return undefined;
  return {
    match: matchCatalog(describedOperations(description.doc)),
    compile: createSchemaCompiler(description.source, description.dialect),
  };
}

export async function operationContracts(
  config: FerryConfig,
  described?: DescribedContext,
): Promise<OperationContracts | undefined> {
  const context = described ?? (await describedContext(config));
  if (!context) return undefined;
  const { match, compile } = context;
  const byOperation = new Map<string, ItemContract | undefined>();
  return (ref) => {
    if (ref.operation.kind === 'delete') return undefined;
    const id = ref.operation.id;
    if (!byOperation.has(id)) {
      const op = match.matched.get(id);
      const schema = op && itemSchemaOf(ref, op);
      byOperation.set(id, op && schema ? compile(schema, op.pointer) : undefined);
    }
    return byOperation.get(id);
  };
}
