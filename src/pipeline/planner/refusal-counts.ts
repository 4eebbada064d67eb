import type { RedisClient } from '../../redis/index.js';
import { createRefusalLog, type RefusalCount } from '../../state/index.js';
import type { PipelineDefinition } from '../definition/definition-types.js';

/** The refusal counts of a pipeline's entities, read once before it plans (state/refusals.ts). */
export function refusalCounts(
  redis: RedisClient,
  prefix: string,
  definition: PipelineDefinition,
): Promise<RefusalCount> {
  const resources = definition.entities.map((entity) => entity.resource);
  return createRefusalLog(redis, prefix).load(definition.name, resources);
}
