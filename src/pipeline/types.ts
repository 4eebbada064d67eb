/**
 * The records that flow between the stages of the data flow in docs/ARCHITECTURE.md. Connectors
 * produce SourceRecords; mapping gives Entities or RowErrors; change detection gives Changes; the
 * planner gives a Plan of DeliveryRequests that the queue carries and the worker sends.
 */
import type { RowError } from '../base/index.js';
import type { StateItem } from '../state/index.js';
import type { GuardReport } from './guards/guard-report.js';

export type { ChangeKind, EntityState, StateItem } from '../state/index.js';

/** One item inside a delivery request, with what is needed to commit it once confirmed. */
export interface DeliveryItem extends StateItem {
  /** The item as it goes into the request body (for entity writes, the whole body). */
  payload: unknown;
}

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
  /** What the pipeline's value guards found (none configured: absent). */
  guards?: GuardReport;
  /**
   * Changed prices and the requests that carry them (products.prices.patch, or product batches
   * with prices inside: bindings' pricesInBatch); absent when no price changed.
   */
  prices?: PriceCount;
}

export interface PriceCount {
  changed: number;
  requests: number;
}
