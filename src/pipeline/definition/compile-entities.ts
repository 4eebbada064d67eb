/**
 * Checks each entity of a pipeline file against the catalog and the configured listing, and
 * compiles its mapping. Operations outside the listing fail by name (resolveOperation throws).
 */
import { type Binding, type OperationKind, resolveOperation } from '../../interface/index.js';
import type { Listing } from '../../config/index.js';
import { compileMapping } from '../mapping/compile-entity.js';
import type { CompileContext } from '../mapping/field-types.js';
import type { ChangeKind } from '../types.js';
import type { EntityDefinition, OperationRef } from './definition-types.js';
import { CHANGE_KINDS, type PipelineFile } from './pipeline-schema.js';

const KINDS_FOR: Record<ChangeKind, readonly OperationKind[]> = {
  upsert: ['upsert', 'entityWrite'],
  patch: ['patch', 'entityWrite'],
  delete: ['delete'],
};

const EXPECTED: Record<ChangeKind, string> = {
  upsert: 'a PUT of a collection (e.g. products.put) or a write addressed by a path parameter',
  patch: 'a PATCH of a collection (e.g. products.patch) or a write addressed by a path parameter',
  delete: 'a DELETE of a collection (e.g. products.delete)',
};

function resolveRefs(
  ops: PipelineFile['entities'][number]['operations'],
  listing: Listing,
  bindings: ReadonlyMap<string, Binding>,
  path: string,
  ctx: CompileContext,
): Partial<Record<ChangeKind, OperationRef>> {
  const refs: Partial<Record<ChangeKind, OperationRef>> = {};
  for (const kind of CHANGE_KINDS) {
    const id = ops[kind];
    if (id === undefined) continue;
    const operation = resolveOperation(id, listing);
    if (!KINDS_FOR[kind].includes(operation.kind)) {
      ctx.issues.push({
        path: `${path}.operations.${kind}`,
        message: `expected ${EXPECTED[kind]}, got ${id}`,
      });
      continue;
    }
    refs[kind] = { operation, binding: bindings.get(id) as Binding };
  }
  return refs;
}

function keyFieldOf(
  refs: Partial<Record<ChangeKind, OperationRef>>,
  path: string,
  ctx: CompileContext,
): string | undefined {
  const writers = [refs.upsert, refs.patch].filter((r): r is OperationRef => r !== undefined);
  const collection = writers.filter((r) => r.binding.body === 'items');
  if (collection.length > 0 && collection.length < writers.length) {
    ctx.issues.push({
      path: `${path}.operations`,
      message: 'upsert and patch must both write a collection, or both address one entity',
    });
  }
  return collection[0]?.binding.keyField;
}

export function compileEntities(
  file: PipelineFile,
  listing: Listing,
  bindings: ReadonlyMap<string, Binding>,
  ctx: CompileContext,
): EntityDefinition[] {
  const entities: EntityDefinition[] = [];
  file.entities.forEach((spec, index) => {
    const path = `entities.${index}`;
    const operations = resolveRefs(spec.operations, listing, bindings, path, ctx);
    const resources = [...new Set(Object.values(operations).map((r) => r.operation.resource))];
    if (resources.length > 1) {
      ctx.issues.push({
        path: `${path}.operations`,
        message: `the operations write different resources (${resources.join(', ')}): use one entity per resource`,
      });
    }
    const resource = resources[0] ?? 'unknown';
    const name = spec.name ?? resource;
    const earlier = entities.find((e) => e.name === name || e.resource === resource);
    if (earlier) {
      ctx.issues.push({
        path,
        message: `another entity already has the name "${name}" or writes ${resource}`,
      });
    }
    const mapping = compileMapping(spec, resource, keyFieldOf(operations, path, ctx), path, ctx);
    let sendWithNew: number | undefined;
    if (spec.sendWithNew !== undefined) {
      const target = entities.find((e) => e.name === spec.sendWithNew);
      if (!target || target.duplicates === 'group' || spec.duplicates === 'group') {
        ctx.issues.push({
          path: `${path}.sendWithNew`,
          message:
            'expected the name of an earlier entity that is not grouped (nor may this one be)',
        });
      }
      sendWithNew = target?.index;
    }
    const withOps = CHANGE_KINDS.filter((k) => operations[k]);
    const on = spec.on ?? withOps;
    for (const kind of on) {
      if (!operations[kind]) {
        ctx.issues.push({ path: `${path}.on`, message: `${kind} needs operations.${kind}` });
      }
    }
    entities.push({
      index,
      name,
      resource,
      mapping,
      operations,
      duplicates: spec.duplicates,
      sendWithNew,
      on: new Set(on),
      patchChanged: file.mode === 'snapshot' && operations.patch !== undefined,
      spec,
    });
  });
  return entities;
}
