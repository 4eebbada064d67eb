/**
 * A pipeline as it plans against the platform's description (`interface.openapi`): each entity's
 * payloads are checked against the request schema of the operation that sends them (compiled once
 * per operation), a payload that breaks it rejects its record naming the source column, the JSON
 * pointer and the rule; and an operation whose schema has number properties sends their decimal
 * strings as JSON numbers (interface/openapi/item-contract.ts says why and how, exactly). Without a
 * description the pipeline is returned as it is.
 */
import type { FerryConfig } from '../../config/index.js';
import type { ItemContract } from '../../interface/index.js';
import type {
  EntityContract,
  EntityDefinition,
  OperationRef,
  PipelineDefinition,
} from '../definition/definition-types.js';
import type { ChangeKind } from '../types.js';
import { operationContracts } from './operation-contracts.js';
import { sourceColumn } from './source-column.js';

type Compiled = { ref: OperationRef; contract: ItemContract } | undefined;

function entityContract(entity: EntityDefinition, compiled: (ref?: OperationRef) => Compiled) {
  const upsert = compiled(entity.operations.upsert ?? entity.operations.patch);
  const patch = compiled(entity.operations.patch);
  if (!upsert && !patch) return undefined;
  const contract: EntityContract = {
    check(payload, kind: ChangeKind, issues) {
      // A snapshot plans every payload whole (as an upsert); one it sends as a PATCH of changed
      // fields is part of a payload checked whole.
      const op = kind === 'patch' ? patch : kind === 'upsert' ? upsert : undefined;
      const violations = op?.contract.check(payload);
      if (!op || !violations) return;
      const operationId = op.ref.operation.id;
      for (const v of violations) {
        issues.push({
          field: sourceColumn(entity, v.pointer),
          message: `${v.message} (${v.pointer || 'the payload'} in the ${operationId} request schema)`,
          path: v.pointer,
        });
      }
    },
  };
  return contract;
}

export async function withPayloadContract(
  definition: PipelineDefinition,
  config: FerryConfig,
): Promise<PipelineDefinition> {
  const contractOf = await operationContracts(config);
  if (!contractOf) return definition;
  const compiled = (ref?: OperationRef): Compiled => {
    const contract = ref && contractOf(ref);
    return contract && { ref, contract };
  };
  const entities = definition.entities.map((entity): EntityDefinition => {
    const contract = entityContract(entity, compiled);
    if (!contract) return entity;
    const operations = { ...entity.operations };
    for (const kind of ['upsert', 'patch'] as const) {
      const ref = operations[kind];
      const write = ref && compiled(ref)?.contract.write;
      if (ref && write) operations[kind] = { ...ref, json: write };
    }
    return { ...entity, operations, contract };
  });
  return { ...definition, entities };
}
