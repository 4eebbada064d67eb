/**
 * The records that flow between the stages of DESIGN.md's data flow. Connectors produce
 * SourceRecords; mapping gives Entities or RowErrors; change detection gives Changes; the planner
 * gives a Plan of DeliveryRequests that the queue carries and the worker sends.
 */
import type { RowError, SourceRef } from '../base/records.js';

/** One item of the platform, as mapping made it from one or more records. */
export interface Entity {
  resource: string;
  /** The source system's key (externalId), always a string. */
  key: string;
  payload: Record<string, unknown>;
  source: SourceRef;
}

/** What state says of one entity: its content hash, per-field hashes when kept, and version. */
export interface EntityState {
  hash: string;
  version: number;
  fieldHashes?: Record<string, string>;
  /** Fingerprint of the source values the entity was mapped from (see mapping/input-fingerprint.ts). */
  input?: string;
  /** A tombstone: the entity was deleted at `version` (it is not a live entity). */
  deleted?: boolean;
}

export type ChangeKind = 'upsert' | 'patch' | 'delete';

/** One item inside a delivery request, with what is needed to commit it once confirmed. */
export interface DeliveryItem {
  resource: string;
  key: string;
  kind: ChangeKind;
  /** The item as it goes into the request body (for entity writes, the whole body). */
  payload: unknown;
  /** Content hash to commit; for a delete, the empty string. */
  hash: string;
  fieldHashes?: Record<string, string>;
  /** Fingerprint of the source values the payload was mapped from; none for edited payloads. */
  input?: string;
  /** Version this change carries; a worker never applies one older than what was applied. */
  version: number;
  /** The committed version when planned (part of the idempotency key). 0: never committed. */
  baseVersion: number;
  source?: SourceRef;
}

/** What committing an item needs (a delivery item without its payload). */
export type StateItem = Omit<DeliveryItem, 'payload'>;

/** One HTTP request's worth of items. */
export interface DeliveryRequest {
  operationId: string;
  pathParams: Record<string, string>;
  query?: Record<string, string | string[]>;
  body: unknown;
  /**
   * The JSON of the items' payloads: an array (in item order), or for an entity write its one
   * payload. What a job keeps, so its payloads are never parsed or serialised again to be sent.
   */
  payloadsJson: string;
  items: DeliveryItem[];
  idempotencyKey: string;
}

export interface PlanStage {
  index: number;
  /** Operation ids of this stage, in pipeline order. */
  operationIds: string[];
  requests: DeliveryRequest[];
}

/** Items and requests planned for one operation. */
export interface OperationCount {
  items: number;
  requests: number;
}

export interface Plan {
  pipeline: string;
  /** The version every item of this plan carries (DeliveryItem.version). */
  version: number;
  /** Records read from the source (rejected ones included). */
  rows: number;
  /**
   * Every stage of the pipeline, in delivery order; a stage may have no requests (nothing changed,
   * or the requests went to the plan's `onRequest` instead of being kept).
   */
  stages: PlanStage[];
  /** Per operation with at least one item, in stage order. */
  operations: Record<string, OperationCount>;
  errors: RowError[];
  /** Delete items planned (by absence, or from a change feed). */
  deletes: number;
  /** Entities unchanged since the last committed state, per resource. */
  unchanged: Record<string, number>;
}
