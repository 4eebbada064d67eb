/**
 * Compares one resource of the platform with the pipeline's committed state, entity by entity,
 * in memory flat in the catalog's size: each page of the listing is checked against state read
 * for its keys (HMGET), and its keys go to a set in Redis; then state's live entities are scanned
 * (HSCAN) and looked up in that set (SMISMEMBER) to find those the platform lacks. An item whose
 * projected hash is state's is in step; otherwise it is `different` (the fields named at once
 * from state's per-field hashes when the entity keeps them), and an item state does not hold
 * (or holds as deleted) is `unknown`. What drifted goes to a drift hash in Redis, for the report,
 * the field detail and a repair.
 */
import { fieldHashes } from '../pipeline/index.js';
import {
  stateDeleted,
  stateFieldHashes,
  stateHashIs,
  stateKey,
  createStateStore,
} from '../state/index.js';
import type { RedisClient } from '../redis/index.js';
import type { CheckedResource } from './checked-resources.js';
import type { DriftEntry, DriftRow } from './drift-entry.js';
import { differingHashes, projectItem, type ProjectedItem } from './project-item.js';
import { platformPages, type PageReader } from './platform-pages.js';
import { WORK_TTL_S, type WorkKeys } from './keys.js';

export interface ResourceCounts {
  resource: string;
  operationId: string;
  /** Entities compared: the platform's items (each key once) and those it lacks. */
  checked: number;
  missing: number;
  different: number;
  unknown: number;
  /** Items of the listing without a key (not compared). */
  withoutKey: number;
}

export interface CompareContext {
  redis: RedisClient;
  prefix: string;
  pipeline: string;
  work: WorkKeys;
  reader: PageReader;
  /** Told of each missing and unknown entity as found (different ones are reported later). */
  onRow: (row: DriftRow) => Promise<void>;
}

/** The page's items not seen before (a listing may repeat an item when it moves under paging). */
export async function freshItems(
  redis: RedisClient,
  seenKey: string,
  items: ProjectedItem[],
): Promise<ProjectedItem[]> {
  const seen = await redis.smismember(seenKey, ...items.map((p) => p.key));
  const inPage = new Set<string>();
  return items.filter((p, i) => {
    if (seen[i] === 1 || inPage.has(p.key)) return false;
    inPage.add(p.key);
    return true;
  });
}

function entryOf(
  resource: CheckedResource,
  item: ProjectedItem,
  state: string | null,
): DriftEntry | undefined {
  if (state === null || stateDeleted(state)) {
    return { kind: 'unknown', item: item.payload, hash: item.hash };
  }
  if (stateHashIs(state, item.hash)) return undefined;
  const entry: DriftEntry = { kind: 'different', item: item.payload, hash: item.hash };
  const before = resource.entity.patchChanged ? stateFieldHashes(state) : undefined;
  if (before) entry.fields = differingHashes(fieldHashes(item.payload), before);
  return entry;
}

export async function compareResource(
  ctx: CompareContext,
  resource: CheckedResource,
): Promise<ResourceCounts> {
  const { redis } = ctx;
  const counts: ResourceCounts = {
    resource: resource.resource,
    operationId: resource.operationId,
    checked: 0,
    missing: 0,
    different: 0,
    unknown: 0,
    withoutKey: 0,
  };
  const seenKey = ctx.work.seen(resource.resource);
  const driftKey = ctx.work.drift(resource.resource);
  const state = stateKey(ctx.prefix, ctx.pipeline, resource.resource);

  for await (const page of platformPages(ctx.reader, resource.operationId)) {
    const projected: ProjectedItem[] = [];
    for (const raw of page) {
      const item = projectItem(resource, raw);
      if (item) projected.push(item);
      else counts.withoutKey += 1;
    }
    if (projected.length === 0) continue;
    const items = await freshItems(redis, seenKey, projected);
    if (items.length === 0) continue;
    const values = await redis.hmget(state, ...items.map((p) => p.key));
    const drift: string[] = [];
    for (let i = 0; i < items.length; i += 1) {
      const item = items[i] as ProjectedItem;
      const entry = entryOf(resource, item, values[i] ?? null);
      if (!entry) continue;
      counts[entry.kind] += 1;
      drift.push(item.key, JSON.stringify(entry));
      if (entry.kind === 'unknown') {
        const row: DriftRow = { resource: resource.resource, key: item.key, kind: 'unknown' };
        await ctx.onRow({ ...row, platform: item.payload });
      }
    }
    counts.checked += items.length;
    const write = redis.multi().sadd(seenKey, ...items.map((p) => p.key));
    if (drift.length > 0) write.hset(driftKey, ...drift).expire(driftKey, WORK_TTL_S);
    await write.expire(seenKey, WORK_TTL_S).exec();
  }

  const store = createStateStore(redis, ctx.prefix);
  const missing = JSON.stringify({ kind: 'missing' } satisfies DriftEntry);
  for await (const { keys } of store.scanLive(ctx.pipeline, resource.resource)) {
    const onPlatform = await redis.smismember(seenKey, ...keys);
    const absent = keys.filter((_, i) => onPlatform[i] !== 1);
    if (absent.length === 0) continue;
    // HSCAN may return a key twice (while the hash is rehashed): HSETNX counts it once.
    const added = await Promise.all(absent.map((key) => redis.hsetnx(driftKey, key, missing)));
    await redis.expire(driftKey, WORK_TTL_S);
    for (let i = 0; i < absent.length; i += 1) {
      if (added[i] !== 1) continue;
      counts.missing += 1;
      counts.checked += 1;
      await ctx.onRow({ resource: resource.resource, key: absent[i] as string, kind: 'missing' });
    }
  }
  return counts;
}
