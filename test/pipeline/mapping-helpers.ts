/** Maps single records through small pipelines, for the mapping tests. */
import { KeyRegistry, type MappedEntity } from '../../src/pipeline/mapping/key-registry.js';
import { mapRecord } from '../../src/pipeline/mapping/record-mapper.js';
import type { PipelineDefinition } from '../../src/pipeline/definition/definition-types.js';
import type { RowError } from '../../src/base/records.js';
import { definitionOf, record } from './helpers.js';

export function productPipeline(
  fields: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): PipelineDefinition {
  return definitionOf('t', {
    source: {},
    mode: 'snapshot',
    entities: [{ operations: { upsert: 'products.put' }, key: 'No.', fields, ...extra }],
  });
}

export const FULL = {
  name: { column: 'Name', required: true },
  vendor: { value: 'ACME' },
  handle: { column: 'Handle', fallback: { template: '{Name} {No.}', slug: true } },
  active: { column: 'Blocked', type: 'boolean', negate: true, default: true },
  categoryExternalIds: { column: 'Cats', split: '|', default: [] },
};

export function mapOne(
  definition: PipelineDefinition,
  fields: Record<string, string>,
  registry = new KeyRegistry(definition.entities),
  line = 2,
): MappedEntity[] | RowError {
  const r = mapRecord(definition, registry, record(fields, line));
  return 'error' in r ? r.error : r.entities;
}

export function payloadOf(result: MappedEntity[] | RowError, index = 0): Record<string, unknown> {
  if (!Array.isArray(result)) throw new Error(`rejected: ${result.message}`);
  return result[index]?.payload as Record<string, unknown>;
}
