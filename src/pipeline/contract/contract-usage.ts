/**
 * What Ferry uses of the platform's description, for classifying its changes
 * (interface/openapi/contract-diff.ts): per operation, the item properties a pipeline sends and
 * the items per request. One pipeline's for its run; every import pipeline's for the installation
 * (`ferry interface diff`, the console, /metrics).
 */
import type { FerryConfig } from '../../config/index.js';
import { isFerryError } from '../../errors/index.js';
import type { ContractUsage, OperationUsage } from '../../interface/index.js';
import type { PipelineDefinition } from '../definition/definition-types.js';
import { loadAnyPipeline, pipelineNames } from '../definition/load-pipeline.js';

function addUse(usage: Record<string, OperationUsage>, id: string, use: OperationUsage): void {
  const had = usage[id];
  if (!had) {
    usage[id] = use;
    return;
  }
  const sends = had.sends && use.sends ? [...new Set([...had.sends, ...use.sends])] : undefined;
  const batch = Math.max(had.batch ?? 0, use.batch ?? 0);
  usage[id] = { ...(sends ? { sends } : {}), ...(batch > 0 ? { batch } : {}) };
}

function addPipeline(usage: Record<string, OperationUsage>, pipeline: PipelineDefinition): void {
  for (const entity of pipeline.entities) {
    const key = entity.mapping.keyField;
    const fields = Object.keys(entity.spec.fields);
    for (const ref of Object.values(entity.operations)) {
      const { operation, binding } = ref;
      const items = binding.body === 'items' || operation.kind === 'delete';
      const use: OperationUsage = {};
      // An object body (prices, a campaign) is built by the binding: every property counts.
      if (items) {
        const sent = operation.kind === 'delete' ? [] : fields;
        use.sends = key ? [key, ...sent] : sent;
        use.batch = binding.maxItems;
      }
      addUse(usage, operation.id, use);
    }
  }
}

export function pipelineUsage(pipeline: PipelineDefinition): ContractUsage {
  const usage: Record<string, OperationUsage> = {};
  addPipeline(usage, pipeline);
  return usage;
}

/** Every import pipeline's use (one that does not load says so at its own run, not here). */
export function installationUsage(config: FerryConfig): ContractUsage {
  const usage: Record<string, OperationUsage> = {};
  for (const name of pipelineNames(config)) {
    try {
      const loaded = loadAnyPipeline(name, config);
      if (loaded.direction === 'import') addPipeline(usage, loaded.definition);
    } catch (error) {
      if (!isFerryError(error)) throw error;
    }
  }
  return usage;
}
