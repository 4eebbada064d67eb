/**
 * The inverse of a delivered run, from its before-images (src/state/before-images): an entity it
 * changed gets its previous payload back, one it created is deleted, one it deleted is created
 * again with the payload it had, and the entities sent with it (`sendWithNew`) with theirs. An
 * entity changed again since (state holds another version than the run's) is skipped and named,
 * unless forced. A price restored with its product rides in the product's item where the binding
 * lets it (undo-ride.ts), as it went forward. The result is a Plan like planPipeline's, built by
 * the same request builder (batches, idempotency keys), for a run of its own.
 */
import { stringifyExact } from '../../base/index.js';
import type { FerryConfig } from '../../config/index.js';
import type { RedisClient } from '../../redis/index.js';
import { deletePayload } from '../change-detection.js';
import type {
  EntityDefinition,
  OperationRef,
  PipelineDefinition,
} from '../definition/definition-types.js';
import { contentHash, fieldHashes } from '../hashing.js';
import {
  createPayloadHistory,
  createStateStore,
  stateDeleted,
  stateVersion,
  type BeforeImage,
} from '../../state/index.js';
import { RequestBuilder, type RequestSink } from '../planner/request-builder.js';
import { refusalCounts } from '../planner/refusal-counts.js';
import { UndoRide } from './undo-ride.js';
import type { DeliveryItem, OperationCount, Plan, PlanStage } from '../types.js';

export interface UndoSkip {
  resource: string;
  key: string;
  reason: string;
}

export interface UndoPlanOptions {
  definition: PipelineDefinition;
  redis: RedisClient;
  config: FerryConfig;
  /** The run to undo and the version its items carried. */
  run: { id: string; version: number };
  /** The version the undo's items carry (default Date.now()). */
  version?: number;
  /** Undo entities changed again by a later run too. */
  force?: boolean;
  onRequest?: RequestSink;
}

export interface UndoPlan {
  plan: Plan;
  skipped: UndoSkip[];
  /** Before-images read: 0 when the run changed nothing or they expired. */
  images: number;
}

interface Inverse {
  ref: OperationRef;
  kind: 'upsert' | 'delete';
  payload: Record<string, unknown>;
}

/** What undoing one change sends, or why it cannot. */
function inverseOf(entity: EntityDefinition, image: BeforeImage): Inverse | string {
  const before = image.before;
  const restore = before?.payload;
  if (restore !== undefined) {
    const ref = entity.operations.upsert ?? entity.operations.patch;
    if (!ref) return `${entity.resource} has no upsert operation to restore it with`;
    return { ref, kind: 'upsert', payload: restore as Record<string, unknown> };
  }
  const created = image.baseVersion === 0 || (before !== undefined && before.payload === undefined);
  if (!created) return 'no before-image: it was delivered before Ferry kept payloads';
  if (image.kind === 'delete') return 'nothing to undo: it did not exist before';
  const ref = entity.operations.delete;
  if (!ref)
    return `the run created it, and the pipeline gives ${entity.resource} no delete operation`;
  return { ref, kind: 'delete', payload: deletePayload(ref, image.key) };
}

/** An undo item: the inverse (or a follower's last payload) of one entity, as the planner's. */
function undoItem(
  entity: EntityDefinition,
  key: string,
  inverse: Inverse,
  version: number,
  baseVersion: number,
): { item: DeliveryItem; json: string } {
  const json = stringifyExact(inverse.payload);
  const item: DeliveryItem = {
    resource: entity.resource,
    key,
    kind: inverse.kind,
    payload: inverse.payload,
    hash: inverse.kind === 'delete' ? '' : contentHash(json),
    version,
    baseVersion,
  };
  if (inverse.kind === 'upsert' && entity.patchChanged) {
    item.fieldHashes = fieldHashes(inverse.payload);
  }
  return { item, json };
}

/**
 * The entities sent with a re-created one (`sendWithNew`: a product's prices go with the product,
 * and went with its deletion on the platform): each goes out again with the payload Ferry last
 * delivered for it, when the run did not change it itself (its own before-image decides then)
 * and state holds it live. Assumes the follower's key is its target's, as one record maps both.
 */
async function sendFollowers(
  ctx: { definition: PipelineDefinition; redis: RedisClient; config: FerryConfig },
  recreated: ReadonlyMap<number, ReadonlySet<string>>,
  touched: ReadonlyMap<string, ReadonlySet<string>>,
  add: (entity: EntityDefinition, key: string, inverse: Inverse, baseVersion: number) => void,
): Promise<void> {
  const { definition, redis, config } = ctx;
  const prefix = config.redis.prefix;
  const history = createPayloadHistory(redis, prefix, config.undo.retentionDays);
  const store = createStateStore(redis, prefix);
  for (const follower of definition.entities) {
    const targetKeys =
      follower.sendWithNew === undefined ? undefined : recreated.get(follower.sendWithNew);
    const ref = follower.operations.upsert ?? follower.operations.patch;
    if (!targetKeys || !ref) continue;
    const own = touched.get(follower.resource);
    const keys = [...targetKeys].filter((k) => !own?.has(k));
    if (keys.length === 0) continue;
    const states = await store.readEncoded(definition.name, follower.resource, keys);
    const kept = await history.lastDelivered(definition.name, follower.resource, keys);
    keys.forEach((key, i) => {
      const state = states[i] ?? null;
      const payload = kept[i]?.payload;
      if (state === null || stateDeleted(state) || payload === undefined) return;
      const inverse: Inverse = { ref, kind: 'upsert', payload: payload as Record<string, unknown> };
      add(follower, key, inverse, stateVersion(state));
    });
  }
}

export async function planUndo(options: UndoPlanOptions): Promise<UndoPlan> {
  const { definition, redis, config, run } = options;
  const prefix = config.redis.prefix;
  const version = options.version ?? Date.now();
  const history = createPayloadHistory(redis, prefix, config.undo.retentionDays);
  const store = createStateStore(redis, prefix);
  const stages: PlanStage[] = definition.stages.map((operationIds, index) => ({
    index,
    operationIds,
    requests: [],
  }));
  const stageOf = new Map(definition.stages.flatMap((ids, i) => ids.map((id) => [id, i] as const)));
  const retain = options.onRequest === undefined;
  const builder = new RequestBuilder(
    definition.name,
    stageOf,
    (stage, request) => {
      if (retain) stages[stage]?.requests.push(request);
      options.onRequest?.(stage, request);
    },
    await refusalCounts(redis, prefix, definition),
  );
  const byResource = new Map(definition.entities.map((e) => [e.resource, e]));
  const skipped: UndoSkip[] = [];
  /** Per resource, the keys the run changed (their before-images decide them). */
  const touched = new Map<string, Set<string>>();
  /** Per entity index, the keys the undo creates again. */
  const recreated = new Map<number, Set<string>>();
  let images = 0;
  let deletes = 0;
  const ride = new UndoRide(definition.entities, (ref, item, json) => builder.add(ref, item, json));
  const add = (entity: EntityDefinition, key: string, inverse: Inverse, baseVersion: number) => {
    const restore =
      inverse.kind === 'upsert'
        ? { ...inverse, payload: ride.restorePayload(entity, inverse.payload) }
        : inverse;
    const { item, json } = undoItem(entity, key, restore, version, baseVersion);
    if (inverse.kind === 'delete') deletes += 1;
    ride.add(entity, inverse.ref, item, json);
  };
  for await (const batch of history.beforeImages(definition.name, run.id)) {
    images += batch.length;
    const groups = new Map<string, BeforeImage[]>();
    for (const image of batch) {
      const list = groups.get(image.resource);
      if (list) list.push(image);
      else groups.set(image.resource, [image]);
      let keys = touched.get(image.resource);
      if (!keys) touched.set(image.resource, (keys = new Set()));
      keys.add(image.key);
    }
    for (const [resource, list] of groups) {
      const states = await store.readEncoded(
        definition.name,
        resource,
        list.map((i) => i.key),
      );
      for (const [i, image] of list.entries()) {
        const skip = (reason: string) => skipped.push({ resource, key: image.key, reason });
        const entity = byResource.get(resource);
        if (!entity) {
          skip(`the pipeline no longer has ${resource}`);
          continue;
        }
        const state = states[i] ?? null;
        const now = state === null ? 0 : stateVersion(state);
        if (now !== run.version && !options.force) {
          skip(`changed again by a later run (version ${now}); --force undoes it anyway`);
          continue;
        }
        const inverse = inverseOf(entity, image);
        if (typeof inverse === 'string') {
          skip(inverse);
          continue;
        }
        if (inverse.kind === 'delete' && state !== null && stateDeleted(state)) {
          skip('deleted already');
          continue;
        }
        if (image.kind === 'delete') {
          let keys = recreated.get(entity.index);
          if (!keys) recreated.set(entity.index, (keys = new Set()));
          keys.add(image.key);
        }
        add(entity, image.key, inverse, now);
      }
    }
  }
  await sendFollowers({ definition, redis, config }, recreated, touched, add);
  ride.finish();
  builder.finish();
  const operations: Record<string, OperationCount> = {};
  for (const id of definition.stages.flat()) {
    const c = builder.counts.get(id);
    if (c && c.items > 0) operations[id] = c;
  }
  return {
    plan: {
      pipeline: definition.name,
      version,
      rows: 0,
      stages,
      operations,
      errors: [],
      deletes,
      unchanged: {},
      ...(builder.prices.changed > 0 ? { prices: builder.prices } : {}),
    },
    skipped,
    images,
  };
}
