/**
 * Change detection: an entity against its committed state -> a DeliveryItem, or nothing.
 * Snapshot: new (or deleted before) -> upsert; same content hash -> nothing; changed -> upsert, or
 * with a patch operation a PATCH of the changed fields only (per-field hashes, never payloads).
 * Changes mode sends each record's change unless committed state has it already. Deletes by
 * absence live in plan-deletes.ts.
 */
import type { EntityDefinition, OperationRef } from './definition/definition-types.js';
import { contentHash, fieldHashes } from './hashing.js';
import type { MappedEntity } from './mapping/key-registry.js';
import { stateDeleted, stateFieldHashes, stateHashIs, stateVersion } from '../state/index.js';
import { findRide, PriceRide } from './planner/price-ride.js';
import type { DeliveryItem } from './types.js';

/** Receives each planned item with its operation and the canonical JSON of its payload. */
export type ItemSink = (ref: OperationRef, item: DeliveryItem, json: string) => void;

export interface DetectContext {
  mode: 'snapshot' | 'changes';
  version: number;
  emit: ItemSink;
  /** Unchanged entities per resource (counted here). */
  unchanged: Map<string, number>;
  /** Per entity index: how many of its planned keys are live in state (counted here). */
  liveSeen: number[];
}

/** The payload a delete carries: the key in the binding's key field. */
export function deletePayload(ref: OperationRef, key: string): Record<string, string> {
  return { [ref.binding.keyField]: key };
}

function upsertRef(entity: EntityDefinition): OperationRef {
  return (entity.operations.upsert ?? entity.operations.patch) as OperationRef;
}

/** Counts an entity that gives nothing to send. */
function countUnchanged(entity: EntityDefinition, ctx: DetectContext): void {
  ctx.unchanged.set(entity.resource, (ctx.unchanged.get(entity.resource) ?? 0) + 1);
}

/** Counts a live entity whose input is what state says it was mapped from: nothing to send. */
export function countUnchangedInput(entity: EntityDefinition, ctx: DetectContext): void {
  ctx.liveSeen[entity.index] = (ctx.liveSeen[entity.index] ?? 0) + 1;
  countUnchanged(entity, ctx);
}

/** Whether `sendWithNew` makes this entity go out although unchanged: its target was created. */
function sentWithNew(entity: EntityDefinition, created: number): boolean {
  return entity.sendWithNew !== undefined && (created & (1 << entity.sendWithNew)) !== 0;
}

function changedFields(
  entity: EntityDefinition,
  payload: Record<string, unknown>,
  now: Record<string, string>,
  before: Record<string, string>,
): Record<string, unknown> | undefined {
  for (const k of Object.keys(before)) if (!(k in now)) return undefined; // a field was removed
  const keyField = entity.mapping.keyField;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(payload)) {
    if (k === keyField || now[k] !== before[k]) out[k] = payload[k];
  }
  return out;
}

/** Plans one entity against its encoded state; returns whether it is created (new, or deleted before). */
function detectSnapshot(
  m: MappedEntity,
  state: string | null,
  created: number,
  ctx: DetectContext,
): boolean {
  const { entity, key } = m;
  const payload = m.payload as Record<string, unknown>;
  const json = JSON.stringify(payload);
  const hash = contentHash(json);
  const fh = entity.patchChanged ? fieldHashes(payload) : undefined;
  let kind: 'upsert' | 'patch' = 'upsert';
  let sent: Record<string, unknown> = payload;
  const isNew = state === null || stateDeleted(state);
  if (!isNew) ctx.liveSeen[entity.index] = (ctx.liveSeen[entity.index] ?? 0) + 1;
  let before: Record<string, string> | undefined;
  if (isNew) {
    // sent below
  } else if (stateHashIs(state, hash)) {
    if (!sentWithNew(entity, created)) {
      countUnchanged(entity, ctx);
      return false;
    }
  } else if (fh && (before = stateFieldHashes(state))) {
    const patch = changedFields(entity, payload, fh, before);
    if (patch) {
      kind = 'patch';
      sent = patch;
    }
  }
  // Items are built in one literal (no spreads, no closures): this runs for every entity.
  const item: DeliveryItem = {
    resource: entity.resource,
    key,
    kind,
    payload: sent,
    hash,
    version: ctx.version,
    baseVersion: state === null ? 0 : stateVersion(state),
    source: m.source,
  };
  if (fh) item.fieldHashes = fh;
  if (m.input !== undefined) item.input = m.input;
  if (kind === 'patch') {
    ctx.emit(entity.operations.patch as OperationRef, item, JSON.stringify(sent));
  } else ctx.emit(upsertRef(entity), item, json);
  return isNew;
}

/**
 * Changes mode: the record's change, unless committed state has it already (so a feed run twice
 * sends nothing). An upsert/patch whose content hash is committed is unchanged; a delete of a
 * tombstone is not planned. A delete of a key without state is sent: state is per pipeline, so
 * a feed's first delete of an entity another pipeline created finds none. Returns whether the
 * entity is created (an upsert of a key that is new, or deleted before).
 */
function detectChange(
  m: MappedEntity,
  state: string | null,
  created: number,
  ctx: DetectContext,
): boolean {
  const { entity, kind } = m;
  const ref = entity.operations[kind] as OperationRef;
  const payload = kind === 'delete' ? deletePayload(ref, m.key) : m.payload;
  const json = JSON.stringify(payload);
  const isNew = state === null || stateDeleted(state);
  let hash = '';
  if (kind === 'delete') {
    if (state !== null && stateDeleted(state)) return false;
  } else {
    hash = contentHash(json);
    if (!isNew && stateHashIs(state, hash) && !sentWithNew(entity, created)) {
      countUnchanged(entity, ctx);
      return false;
    }
  }
  const item: DeliveryItem = {
    resource: entity.resource,
    key: m.key,
    kind,
    payload,
    hash,
    version: ctx.version,
    baseVersion: state === null ? 0 : stateVersion(state),
    source: m.source,
  };
  ctx.emit(ref, item, json);
  return kind === 'upsert' && isNew;
}

/**
 * Plans one record's entities (in entity order, so `sendWithNew` sees its entity first) against
 * their encoded states, index for index (null: none).
 */
export function detectRecord(
  entities: readonly MappedEntity[],
  states: readonly (string | null)[],
  ctx: DetectContext,
): void {
  const productAt = ctx.mode === 'snapshot' ? findRide(entities) : undefined;
  const product = productAt === undefined ? undefined : (entities[productAt] as MappedEntity);
  const rider = product && new PriceRide(product);
  const run = rider ? { ...ctx, emit: rider.hold } : ctx;
  let created = 0; // bit i: entity i of this record is created
  for (let j = 0; j < entities.length; j++) {
    const m = entities[j] as MappedEntity;
    const state = states[j] ?? null;
    const isCreated =
      ctx.mode === 'snapshot'
        ? detectSnapshot(m, state, created, run)
        : detectChange(m, state, created, run);
    if (isCreated) created |= 1 << m.entity.index;
  }
  if (!rider || !product) return;
  // A product counted unchanged goes after all: it carries its price.
  if (rider.release(ctx.emit, states[productAt as number] ?? null, ctx.version)) {
    const resource = product.entity.resource;
    const left = (ctx.unchanged.get(resource) ?? 1) - 1;
    if (left > 0) ctx.unchanged.set(resource, left);
    else ctx.unchanged.delete(resource);
  }
}
