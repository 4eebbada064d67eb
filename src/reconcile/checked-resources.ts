/**
 * Which of a pipeline's resources can be compared with the platform: those an entity sends whole
 * (a PUT or PATCH of a collection) and that an operation of the interface reads (products.get,
 * stores.get). A resource no operation reads at all (categories, a product's prices) is left
 * unchecked and said so; one whose read operation the configured listing lacks stops the command.
 */
import type { Listing } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { OPERATIONS } from '../interface/index.js';
import type { EntityDefinition, PipelineDefinition } from '../pipeline/index.js';
import { ResourceNotReadableError } from './errors.js';

export interface CheckedResource {
  resource: string;
  /** The read operation that lists it. */
  operationId: string;
  /** The entity whose payloads Ferry sends for it (its fields are what is compared). */
  entity: EntityDefinition;
  /** The item field that carries the key (externalId). */
  keyField: string;
  /** The payload fields compared, the key field included, sorted. */
  fields: string[];
}

export interface UncheckedResource {
  resource: string;
  reason: string;
}

export interface ResourcePlan {
  checked: CheckedResource[];
  unchecked: UncheckedResource[];
}

/** The collection write that sends the entity whole, if any. */
function collectionWrite(entity: EntityDefinition): boolean {
  const ref = entity.operations.upsert ?? entity.operations.patch;
  return ref?.operation.kind === 'upsert' || ref?.operation.kind === 'patch';
}

export function resourcesToCheck(
  definition: PipelineDefinition,
  listing: Listing,
  /** The reads the platform's description declares, when there is one. */
  contract?: { source: string; operations?: readonly string[] },
): ResourcePlan {
  if (definition.mode !== 'snapshot') {
    throw new UsageError(
      `Pipeline "${definition.name}" reads a change feed (mode: changes), which never holds the ` +
        `whole catalog: only snapshot pipelines can be compared with what the platform holds.`,
    );
  }
  const plan: ResourcePlan = { checked: [], unchecked: [] };
  const seen = new Set<string>();
  for (const entity of definition.entities) {
    if (seen.has(entity.resource)) continue;
    seen.add(entity.resource);
    const read = OPERATIONS.find((o) => o.kind === 'read' && o.resource === entity.resource);
    const keyField = entity.mapping.keyField;
    if (!read || !collectionWrite(entity) || keyField === undefined) {
      plan.unchecked.push({
        resource: entity.resource,
        reason: `no operation of the interface reads ${entity.resource}`,
      });
      continue;
    }
    if (!read.listings.includes(listing)) {
      throw new ResourceNotReadableError(
        definition.name,
        entity.resource,
        read.id,
        `listing ${listing}`,
      );
    }
    if (contract?.operations && !contract.operations.includes(read.id)) {
      const where = `the platform's description (${contract.source})`;
      throw new ResourceNotReadableError(definition.name, entity.resource, read.id, where);
    }
    const fields = [...new Set([keyField, ...entity.mapping.fields.map((f) => f.name)])].sort();
    plan.checked.push({
      resource: entity.resource,
      operationId: read.id,
      entity,
      keyField,
      fields,
    });
  }
  if (plan.checked.length === 0) {
    throw new UsageError(
      `Pipeline "${definition.name}": ${plan.unchecked.map((u) => u.reason).join('; ')}: ` +
        `there is nothing Ferry can read back to compare.`,
    );
  }
  return plan;
}
