/**
 * Delivery stages. Default: the entities' upserts and patches in entity order (categories before
 * products before prices), then their deletes in reverse order (children before parents). A
 * pipeline's `stages` list overrides it; every operation it uses must appear exactly once.
 */
import type { CompileContext } from '../mapping/field-types.js';
import type { EntityDefinition } from './definition-types.js';

export function defaultStages(entities: readonly EntityDefinition[]): string[][] {
  const stages: string[][] = [];
  for (const e of entities) {
    const ids = [e.operations.upsert, e.operations.patch]
      .filter((r) => r !== undefined)
      .map((r) => r.operation.id);
    if (ids.length > 0) stages.push([...new Set(ids)]);
  }
  for (const e of [...entities].reverse()) {
    if (e.operations.delete) stages.push([e.operations.delete.operation.id]);
  }
  return stages;
}

export function compileStages(
  given: (string | string[])[] | undefined,
  entities: readonly EntityDefinition[],
  ctx: CompileContext,
): string[][] {
  const stages = defaultStages(entities);
  if (!given) return stages;
  const used = new Set(stages.flat());
  const listed = given.map((s) => [s].flat());
  const seen = new Set<string>();
  listed.forEach((stage, i) => {
    for (const id of stage) {
      if (!used.has(id)) {
        ctx.issues.push({
          path: `stages.${i}`,
          message: `${id} is not an operation of the entities`,
        });
      }
      if (seen.has(id)) ctx.issues.push({ path: `stages.${i}`, message: `${id} is listed twice` });
      seen.add(id);
    }
  });
  for (const id of used) {
    if (!seen.has(id))
      ctx.issues.push({ path: 'stages', message: `${id} is missing from the stages` });
  }
  return listed;
}
