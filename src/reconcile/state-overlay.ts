/**
 * What the platform holds, written over the pipeline's state for the entities that drifted, so
 * that the pipeline's own planning sends what restores the ERP's truth: a missing entity becomes a
 * tombstone (planned as new, with what `sendWithNew` sends along), a different one takes the
 * platform's hash (and per-field hashes: a PATCH entity sends the fields that differ) without an
 * input fingerprint (so its record is mapped again), and an unknown one becomes live, so that
 * deletes by absence delete it when the source lacks it, within the mass-delete guard. An unknown
 * entity of an entity that does not delete by absence is left alone: the pipeline never claimed
 * it. Written through the state store's commit at a version newer than any committed.
 */
import { type EntityDefinition, fieldHashes, type StateItem } from '../pipeline/index.js';
import type { StateStore } from '../state/index.js';
import type { RedisClient } from '../redis/index.js';
import type { CheckedResource } from './checked-resources.js';
import { parseEntry, type DriftEntry } from './drift-entry.js';
import type { WorkKeys } from './keys.js';

const SCAN_COUNT = 1_000;

function deletesByAbsence(entity: EntityDefinition, enabled: boolean): boolean {
  return enabled && entity.operations.delete !== undefined;
}

function overlayItem(
  resource: CheckedResource,
  key: string,
  entry: DriftEntry,
  version: number,
  deletes: boolean,
): StateItem | undefined {
  const base = { resource: resource.resource, key, version, baseVersion: 0 };
  if (entry.kind === 'missing') return { ...base, kind: 'delete', hash: '' };
  if (entry.kind === 'unknown' && !deletesByAbsence(resource.entity, deletes)) return undefined;
  if (!entry.item || !entry.hash) return undefined;
  const item: StateItem = { ...base, kind: 'upsert', hash: entry.hash };
  if (resource.entity.patchChanged) item.fieldHashes = fieldHashes(entry.item);
  return item;
}

/** Commits the overlay of every drifted entity into `store`; returns how many were written. */
export async function applyOverlay(
  redis: RedisClient,
  store: StateStore,
  pipeline: string,
  work: WorkKeys,
  resources: readonly CheckedResource[],
  version: number,
  deletesEnabled: boolean,
): Promise<number> {
  let written = 0;
  for (const resource of resources) {
    let cursor = '0';
    do {
      const [next, flat] = await redis.hscan(
        work.drift(resource.resource),
        cursor,
        'COUNT',
        SCAN_COUNT,
      );
      cursor = next;
      const items: StateItem[] = [];
      for (let i = 0; i < flat.length; i += 2) {
        const entry = parseEntry(flat[i + 1] as string);
        const item = overlayItem(resource, flat[i] as string, entry, version, deletesEnabled);
        if (item) items.push(item);
      }
      if (items.length > 0) written += (await store.commit(pipeline, items)).committed.length;
    } while (cursor !== '0');
  }
  return written;
}
