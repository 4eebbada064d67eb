/**
 * `ferry state rebuild --from-platform`: a pipeline's lost state rebuilt from what the platform
 * holds, so the next run sends only what really changed instead of the whole catalog. Each item
 * of the listing is committed as delivered with the hash of its projection (project-item.ts: the
 * hash a run computes for the same payload), and per-field hashes for PATCH entities; an entity
 * state holds live that the platform lacks becomes a tombstone (the next run creates it again).
 * Entries already equal to the platform's are left as they are (with their input fingerprints).
 * Pages stream as in a reconciliation, so memory stays flat in the catalog's size.
 *
 * Resources no operation reads (categories, prices) cannot come from the platform: they are
 * rebuilt from `deliveredFile`, the export last delivered, when given, trusting that the platform
 * holds what it says; otherwise they are left out and the next run sends them again. After a loss
 * of Redis's data, a rebuilt pipeline's runs go on as usual (the loss is marked handled for it).
 */
import type { FerryConfig } from '../config/index.js';
import type { InterfaceClient } from '../interface/index.js';
import {
  type PipelineDefinition,
  fieldHashes,
  type SourceSpec,
  type DeliveryItem,
  type StateItem,
} from '../pipeline/index.js';
import {
  bindStatePlatform,
  platformUrl,
  stateDeleted,
  stateHashIs,
  stateKey,
  createStateStore,
  type StateStore,
} from '../state/index.js';
import {
  pendingDataLoss,
  markResent,
  deliveryKeys,
  nextVersion,
  lockPipeline,
} from '../runs/index.js';
import type { RedisClient } from '../redis/index.js';
import { resourcesToCheck, type CheckedResource } from './checked-resources.js';
import { freshItems } from './compare-resource.js';
import { platformPages, type PageReader } from './platform-pages.js';
import { projectItem, type ProjectedItem } from './project-item.js';
import { streamSourceItems } from './source-items.js';
import { dropWork, WORK_TTL_S, workKeys, type WorkKeys } from './keys.js';

export interface RebuildOptions {
  config: FerryConfig;
  redis: RedisClient;
  client: InterfaceClient;
  definition: PipelineDefinition;
  pageSize: number;
  dryRun: boolean;
  /** The export last delivered: the resources the platform cannot list are rebuilt from it. */
  deliveredFile?: SourceSpec;
  lookupFiles?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

export interface RebuiltResource {
  resource: string;
  from: 'platform' | 'file';
  /** Entities the rebuilt state holds live for it. */
  entities: number;
  /** State entries written (dry run: that would be). */
  written: number;
  /** Entities state held live that the platform lacks, now tombstones. */
  deleted: number;
}

export interface RebuildResult {
  pipeline: string;
  entities: number;
  resources: RebuiltResource[];
  notRebuilt: { resource: string; reason: string }[];
  requests: number;
  dryRun: boolean;
  /** Redis had lost its data: this pipeline's runs no longer stop for it. */
  dataLossHandled?: boolean;
  seconds: number;
}

interface Writer {
  store: StateStore;
  pipeline: string;
  version: number;
  dryRun: boolean;
}

/** Commits the items whose state is not already live with their hash; returns how many. */
async function writeChanged(
  redis: RedisClient,
  prefix: string,
  writer: Writer,
  resource: string,
  items: StateItem[],
): Promise<number> {
  const values = await redis.hmget(
    stateKey(prefix, writer.pipeline, resource),
    ...items.map((i) => i.key),
  );
  const changed = items.filter((item, i) => {
    const value = values[i] ?? null;
    return value === null || stateDeleted(value) || !stateHashIs(value, item.hash);
  });
  if (changed.length > 0 && !writer.dryRun) await writer.store.commit(writer.pipeline, changed);
  return changed.length;
}

function stateItem(resource: CheckedResource, item: ProjectedItem, version: number): StateItem {
  const out: StateItem = {
    resource: resource.resource,
    key: item.key,
    kind: 'upsert',
    hash: item.hash,
    version,
    baseVersion: 0,
  };
  if (resource.entity.patchChanged) out.fieldHashes = fieldHashes(item.payload);
  return out;
}

async function fromPlatform(
  options: RebuildOptions,
  writer: Writer,
  work: WorkKeys,
  reader: PageReader,
  resource: CheckedResource,
): Promise<RebuiltResource> {
  const { redis, config } = options;
  const prefix = config.redis.prefix;
  const out: RebuiltResource = {
    resource: resource.resource,
    from: 'platform',
    entities: 0,
    written: 0,
    deleted: 0,
  };
  const seenKey = work.seen(resource.resource);
  for await (const page of platformPages(reader, resource.operationId)) {
    const projected = page
      .map((raw) => projectItem(resource, raw))
      .filter((p): p is ProjectedItem => p !== undefined);
    if (projected.length === 0) continue;
    const items = await freshItems(redis, seenKey, projected);
    if (items.length === 0) continue;
    await redis
      .multi()
      .sadd(seenKey, ...items.map((p) => p.key))
      .expire(seenKey, WORK_TTL_S)
      .exec();
    out.entities += items.length;
    const state = items.map((p) => stateItem(resource, p, writer.version));
    out.written += await writeChanged(redis, prefix, writer, resource.resource, state);
  }
  for await (const { keys } of writer.store.scanLive(writer.pipeline, resource.resource)) {
    const onPlatform = await redis.smismember(seenKey, ...keys);
    const gone: StateItem[] = keys
      .filter((_, i) => onPlatform[i] !== 1)
      .map((key) => ({
        resource: resource.resource,
        key,
        kind: 'delete',
        hash: '',
        version: writer.version,
        baseVersion: 0,
      }));
    out.deleted += gone.length;
    if (gone.length > 0 && !writer.dryRun) await writer.store.commit(writer.pipeline, gone);
  }
  return out;
}

async function fromDeliveredFile(
  options: RebuildOptions,
  writer: Writer,
  resources: readonly string[],
): Promise<RebuiltResource[]> {
  const out = new Map<string, RebuiltResource>(
    resources.map((r) => [r, { resource: r, from: 'file', entities: 0, written: 0, deleted: 0 }]),
  );
  await streamSourceItems(
    {
      definition: options.definition,
      config: options.config,
      redis: options.redis,
      ...(options.deliveredFile ? { source: options.deliveredFile } : {}),
      ...(options.lookupFiles ? { lookupFiles: options.lookupFiles } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
    async (items) => {
      const byResource = new Map<string, DeliveryItem[]>();
      for (const item of items) {
        if (!out.has(item.resource) || item.kind === 'delete') continue;
        const list = byResource.get(item.resource) ?? [];
        list.push({ ...item, version: writer.version, baseVersion: 0 });
        byResource.set(item.resource, list);
      }
      for (const [resource, list] of byResource) {
        const counts = out.get(resource) as RebuiltResource;
        counts.entities += list.length;
        const state: StateItem[] = list.map(
          ({ payload: _payload, source: _source, ...rest }) => rest,
        );
        counts.written += await writeChanged(
          options.redis,
          options.config.redis.prefix,
          writer,
          resource,
          state,
        );
      }
    },
  );
  return [...out.values()];
}

export async function rebuildState(options: RebuildOptions): Promise<RebuildResult> {
  const { config, redis, definition } = options;
  const started = Date.now();
  const plan = resourcesToCheck(definition, config.interface.listing, config.contract);
  const keys = deliveryKeys(config.redis.prefix);
  const lock = options.dryRun
    ? undefined
    : await lockPipeline(redis, keys, definition.name, `rebuild-${definition.name}-${started}`);
  const work = workKeys(config.redis.prefix, definition.name);
  let requests = 0;
  try {
    const writer: Writer = {
      store: createStateStore(redis, config.redis.prefix),
      pipeline: definition.name,
      version: await nextVersion(redis, keys, definition.name),
      dryRun: options.dryRun,
    };
    const reader: PageReader = {
      client: options.client,
      delivery: config.delivery,
      pageSize: options.pageSize,
      onRequest: () => (requests += 1),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const resources: RebuiltResource[] = [];
    for (const resource of plan.checked) {
      resources.push(await fromPlatform(options, writer, work, reader, resource));
    }
    const unlisted = plan.unchecked.map((u) => u.resource);
    const notRebuilt = options.deliveredFile
      ? []
      : plan.unchecked.map((u) => ({
          resource: u.resource,
          reason: `${u.reason}: the next run sends it again (or give --delivered-file)`,
        }));
    if (options.deliveredFile && unlisted.length > 0) {
      resources.push(...(await fromDeliveredFile(options, writer, unlisted)));
    }
    const result: RebuildResult = {
      pipeline: definition.name,
      entities: resources.reduce((n, r) => n + r.entities, 0),
      resources,
      notRebuilt,
      requests,
      dryRun: options.dryRun,
      seconds: 0,
    };
    // Rebuilt from this platform: the state belongs to it now (state/platform-binding.ts).
    if (!options.dryRun) {
      const platform = platformUrl(config.interface);
      await bindStatePlatform(redis, config.redis.prefix, definition.name, platform);
    }
    if (!options.dryRun && (await pendingDataLoss(redis, keys, definition.name))) {
      await markResent(redis, keys, definition.name);
      result.dataLossHandled = true;
    }
    result.seconds = (Date.now() - started) / 1000;
    return result;
  } finally {
    await dropWork(
      redis,
      work,
      plan.checked.map((r) => r.resource),
    );
    await lock?.release();
  }
}
