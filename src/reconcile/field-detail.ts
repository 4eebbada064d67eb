/**
 * The fields of the entities that differ. State keeps one content hash per entity (and per-field
 * hashes only for entities sent by PATCH), so the payload Ferry delivered is not kept anywhere:
 * the fields are named by comparing the platform's item with the entity the pipeline's source
 * gives now (what a repair would send), with both values in the report. An entity the source no
 * longer has keeps the fields state's per-field hashes named, or none.
 */
import type { DeliveryItem } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import type { CheckedResource } from './checked-resources.js';
import { parseEntry, type DriftRow } from './drift-entry.js';
import { differingFields, pick } from './project-item.js';
import { streamSourceItems, type SourceItemsOptions } from './source-items.js';
import type { WorkKeys } from './keys.js';

const SCAN_COUNT = 2_000;

/** Adds the fields and the source's values to each `different` entity the source gives. */
export async function detailFromSource(
  options: SourceItemsOptions,
  work: WorkKeys,
  resources: readonly CheckedResource[],
): Promise<{ rows: number; rejected: number }> {
  const { redis } = options;
  const checked = new Set(resources.map((r) => r.resource));
  return streamSourceItems(options, async (items) => {
    const byResource = new Map<string, DeliveryItem[]>();
    for (const item of items) {
      if (!checked.has(item.resource) || item.kind === 'delete') continue;
      const list = byResource.get(item.resource);
      if (list) list.push(item);
      else byResource.set(item.resource, [item]);
    }
    for (const [resource, list] of byResource) {
      const key = work.drift(resource);
      const values = await redis.hmget(key, ...list.map((i) => i.key));
      const updates: string[] = [];
      values.forEach((value, i) => {
        if (value === null) return;
        const entry = parseEntry(value);
        if (entry.kind !== 'different' || !entry.item) return;
        const erp = (list[i] as DeliveryItem).payload as Record<string, unknown>;
        entry.fields = differingFields(entry.item, erp);
        entry.erp = pick(erp, entry.fields);
        updates.push((list[i] as DeliveryItem).key, JSON.stringify(entry));
      });
      if (updates.length > 0) await redis.hset(key, ...updates);
    }
  });
}

/** Reports every `different` entity of the resource, with its fields when known. */
export async function reportDifferent(
  redis: RedisClient,
  work: WorkKeys,
  resource: string,
  onRow: (row: DriftRow) => Promise<void>,
): Promise<void> {
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(work.drift(resource), cursor, 'COUNT', SCAN_COUNT);
    cursor = next;
    for (let i = 0; i < flat.length; i += 2) {
      const entry = parseEntry(flat[i + 1] as string);
      if (entry.kind !== 'different') continue;
      const row: DriftRow = { resource, key: flat[i] as string, kind: 'different' };
      if (entry.fields) row.fields = entry.fields;
      if (entry.item) row.platform = entry.fields ? pick(entry.item, entry.fields) : entry.item;
      if (entry.erp) row.erp = entry.erp;
      await onRow(row);
    }
  } while (cursor !== '0');
}
