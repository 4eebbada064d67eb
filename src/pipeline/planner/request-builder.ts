/**
 * Turns planned items into requests, per operation: batches of at most the binding's maxItems
 * and maxBytes (an item larger than maxBytes alone goes in a request of its own); one request per
 * entity for operations addressed by a path parameter. Each request gets its idempotency key.
 */
import type { OperationRef } from '../definition/definition-types.js';
import type { RefusalCount } from '../../state/index.js';
import type { DeliveryItem, DeliveryRequest, OperationCount, PriceCount } from '../types.js';
import { idempotencyKey } from './idempotency-key.js';
import { PRICES_OPERATION } from './price-ride.js';

/** Receives each request as soon as it is complete, with its stage index. */
export type RequestSink = (stage: number, request: DeliveryRequest) => void;

interface Batch {
  ref: OperationRef;
  items: DeliveryItem[];
  jsons: string[];
  bytes: number;
}

export class RequestBuilder {
  private readonly batches = new Map<string, Batch>();
  readonly counts = new Map<string, OperationCount>();
  /** Changed prices, in requests of their own or riding in product items (item.also). */
  readonly prices: PriceCount = { changed: 0, requests: 0 };

  constructor(
    private readonly pipeline: string,
    private readonly stageOf: ReadonlyMap<string, number>,
    private readonly sink: RequestSink,
    /** Refusals of the changes planned (state/refusals.ts); none by default. */
    private readonly refusalsOf: RefusalCount = () => 0,
  ) {}

  /** Adds one item; `json` is the canonical JSON of its payload. */
  add(ref: OperationRef, item: DeliveryItem, json: string): void {
    const id = ref.operation.id;
    const count = this.counts.get(id) ?? { items: 0, requests: 0 };
    count.items += 1;
    this.counts.set(id, count);
    if (id === PRICES_OPERATION) this.prices.changed += 1;
    else if (item.also) this.prices.changed += item.also.length;
    const { binding } = ref;
    if (binding.body === 'object') {
      this.emit(ref, [item], json);
      return;
    }
    let batch = this.batches.get(id);
    const bytes = Buffer.byteLength(json);
    if (batch && batch.items.length > 0 && batch.bytes + bytes + 1 > binding.maxBytes) {
      this.flush(batch);
    }
    if (!batch) {
      batch = { ref, items: [], jsons: [], bytes: 2 };
      this.batches.set(id, batch);
    }
    batch.items.push(item);
    batch.jsons.push(json);
    batch.bytes += bytes + (batch.items.length > 1 ? 1 : 0);
    if (batch.items.length >= binding.maxItems) this.flush(batch);
  }

  /** Sends every partial batch (the end of the plan). */
  finish(): void {
    for (const batch of this.batches.values()) if (batch.items.length > 0) this.flush(batch);
  }

  private flush(batch: Batch): void {
    this.emit(batch.ref, batch.items, `[${batch.jsons.join(',')}]`);
    batch.items = [];
    batch.jsons = [];
    batch.bytes = 2;
  }

  /** `json`: the canonical JSON of the body (of the only item, for an object body). */
  private emit(ref: OperationRef, items: DeliveryItem[], json: string): void {
    const { operation, binding } = ref;
    const first = items[0] as DeliveryItem;
    const pathParams: Record<string, string> = {};
    for (const name of operation.pathParams) pathParams[name] = first.key;
    let body: unknown;
    let bodyJson = json;
    let query: Record<string, string[]> | undefined;
    if (binding.body === 'object') body = first.payload;
    else if (binding.body === 'none') {
      const keys: string[] = [];
      for (const item of items) keys.push(item.key);
      query = { [binding.deleteQueryParam]: keys };
      bodyJson = '';
    } else {
      const payloads: unknown[] = [];
      for (const item of items) payloads.push(item.payload);
      body = payloads;
    }
    const baseVersions: number[] = [];
    let refusals: number[] | undefined;
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as DeliveryItem;
      baseVersions.push(item.baseVersion);
      const refused = this.refusalsOf(item.resource, item.key, item.baseVersion);
      if (refused > 0) (refusals ??= new Array<number>(items.length).fill(0))[i] = refused;
    }
    const request: DeliveryRequest = {
      operationId: operation.id,
      pathParams,
      body,
      payloadsJson: json,
      items,
      idempotencyKey: idempotencyKey({
        pipeline: this.pipeline,
        operationId: operation.id,
        pathParams,
        query,
        bodyJson,
        baseVersions,
        ...(refusals && { refusals }),
      }),
    };
    if (query) request.query = query;
    (this.counts.get(operation.id) as OperationCount).requests += 1;
    if (operation.id === PRICES_OPERATION || items.some((i) => i.also)) this.prices.requests += 1;
    this.sink(this.stageOf.get(operation.id) ?? 0, request);
  }
}
