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
import { describedContext, operationContracts } from './operation-contracts.js';
import { wireCheckOf } from './wire-check.js';
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
  const described = await describedContext(config);
  const contractOf = described && (await operationContracts(config, described));
  if (!described || !contractOf) return definition;
  const compiled = (ref?: OperationRef): Compiled => {
    const contract = ref && contractOf(ref);
    return contract && { ref, contract };
  };
  const entities = definition.entities.map((entity): EntityDefinition => {
    const contract = entityContract(entity, compiled);
    const operations = { ...entity.operations };
    for (const kind of ['upsert', 'patch'] as const) {
      const ref = operations[kind];
      const write = ref && compiled(ref)?.contract.write;
      if (ref && write) operations[kind] = { ...ref, json: write };
    }
    // Deletes and patches: the body as it goes, in the binding's shape (wire-check.ts).
    for (const kind of ['patch', 'delete'] as const) {
      const ref = operations[kind];
      const op = ref && described.match.matched.get(ref.operation.id);
      const check = ref && op && wireCheckOf(definition.name, ref, op, described.compile);
      if (ref && check) operations[kind] = { ...ref, check };
    }
    return contract ? { ...entity, operations, contract } : { ...entity, operations };
  });
  return { ...definition, entities };
}
