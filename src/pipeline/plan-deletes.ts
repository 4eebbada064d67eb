/**
 * Deletes by absence (snapshot pipelines with deletes enabled): entities live in state but missing
 * from tonight's export. They are collected first and checked against the mass-delete guard
 * before a single one is planned.
 */
import { deletePayload, type ItemSink } from './change-detection.js';
import type {
  EntityDefinition,
  OperationRef,
  PipelineDefinition,
} from './definition/definition-types.js';
import { DELETE_SAMPLE, MassDeleteGuardError, type MassDeleteDetails } from './errors.js';
import type { KeyRegistry } from './mapping/key-registry.js';
import { stateDeleted, type StateStore } from '../state/index.js';
import type { DeliveryItem } from './types.js';

export interface DeleteCandidates {
  entity: EntityDefinition;
  keys: string[];
  baseVersions: number[];
}

export interface DeleteScan {
  candidates: DeleteCandidates[];
  deletes: number;
  /** Live entities in state, over the entities that delete by absence. */
  inState: number;
}

/** `true`: any number; a number: at most that many this run. */
export type AllowDeletes = boolean | number;

/**
 * Live entities in state that are absent from the input. `liveSeen` (per entity index: planned
 * keys found live in state) lets the common night skip the scan: when every live entity in state
 * was seen, there is nothing to delete.
 */
export async function scanDeletes(
  definition: PipelineDefinition,
  registry: KeyRegistry,
  store: StateStore,
  liveSeen: readonly number[],
): Promise<DeleteScan> {
  const scan: DeleteScan = { candidates: [], deletes: 0, inState: 0 };
  if (definition.mode !== 'snapshot' || !definition.deletes.enabled) return scan;
  for (const entity of definition.entities) {
    if (!entity.operations.delete) continue;
    const inState = await store.count(definition.name, entity.resource);
    const spared = registry.onlySpared(entity);
    const sparedStates = await store.readEncoded(definition.name, entity.resource, spared);
    const sparedLive = sparedStates.filter((v) => v !== null && !stateDeleted(v)).length;
    scan.inState += inState;
    if (inState === (liveSeen[entity.index] ?? 0) + sparedLive) continue;
    const found: DeleteCandidates = { entity, keys: [], baseVersions: [] };
    let scanned = 0;
    for await (const { keys, versions } of store.scanLive(definition.name, entity.resource)) {
      scanned += keys.length;
      keys.forEach((key, i) => {
        if (registry.present(entity, key)) return;
        found.keys.push(key);
        found.baseVersions.push(versions[i] as number);
      });
    }
    scan.inState += scanned - inState; // the scan is exact where the counter is not
    scan.deletes += found.keys.length;
    if (found.keys.length > 0) scan.candidates.push(found);
  }
  return scan;
}

/** The deletes a scan found, per operation, and a few of their keys. */
function wantedDeletes(scan: DeleteScan): Pick<MassDeleteDetails, 'operations' | 'sample'> {
  const operations: Record<string, number> = {};
  const sample: MassDeleteDetails['sample'] = [];
  for (const { entity, keys } of scan.candidates) {
    const operationId = (entity.operations.delete as OperationRef).operation.id;
    operations[operationId] = (operations[operationId] ?? 0) + keys.length;
    for (const key of keys.slice(0, DELETE_SAMPLE - sample.length))
      sample.push({ operationId, key });
  }
  return { operations, sample };
}

/** Throws MassDeleteGuardError when the deletes exceed the pipeline's guard and are not allowed. */
export function checkGuard(
  definition: PipelineDefinition,
  scan: DeleteScan,
  rows: number,
  allow: AllowDeletes = false,
): void {
  if (scan.deletes === 0 || allow === true) return;
  if (typeof allow === 'number' && scan.deletes <= allow) return;
  const { maxShare, minRows } = definition.deletes;
  const tooMany = scan.deletes > Math.floor(maxShare * scan.inState);
  if (!tooMany && rows >= minRows) return;
  throw new MassDeleteGuardError({
    pipeline: definition.name,
    deletes: scan.deletes,
    inState: scan.inState,
    maxShare,
    rows,
    minRows,
    ...wantedDeletes(scan),
  });
}

export function emitDeletes(scan: DeleteScan, version: number, emit: ItemSink): void {
  for (const { entity, keys, baseVersions } of scan.candidates) {
    const ref = entity.operations.delete as OperationRef;
    keys.forEach((key, i) => {
      const payload = deletePayload(ref, key);
      const item: DeliveryItem = {
        resource: entity.resource,
        key,
        kind: 'delete',
        payload,
        hash: '',
        version,
        baseVersion: baseVersions[i] as number,
      };
      emit(ref, item, JSON.stringify(payload));
    });
  }
}
