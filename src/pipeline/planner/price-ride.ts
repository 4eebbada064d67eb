/**
 * Prices in the product batch (docs/DELIVERY.md, Prices in product batches): when the products'
 * collection binding says its items may carry `prices` (pricesInBatch, from the platform's
 * description), a record's planned price change goes inside its product's batch item instead of a
 * products.prices.patch request of its own. A product planned as a patch its binding cannot carry
 * prices in, or not planned at all (a price-only change), goes as its full upsert. The price's
 * state entry rides as the item's `also`, committed with it.
 */
import type { OperationRef } from '../definition/definition-types.js';
import { contentHash, fieldHashes } from '../hashing.js';
import type { MappedEntity } from '../mapping/key-registry.js';
import { stateVersion } from '../../state/index.js';
import type { DeliveryItem } from '../types.js';

export const PRICES_OPERATION = 'products.prices.patch';

interface Emitted {
  ref: OperationRef;
  item: DeliveryItem;
  json: string;
}

type Sink = (ref: OperationRef, item: DeliveryItem, json: string) => void;

/**
 * Whether a price entity's payload is its `prices` and nothing else: a product item has a place
 * for `prices` only, so a price mapped with more fields (a price list, a date) goes by itself
 * rather than lose them inside the product's item while state says they were delivered.
 */
function pricesOnly(entity: MappedEntity['entity']): boolean {
  const fields = Object.keys(entity.spec.fields);
  return fields.length === 1 && fields[0] === 'prices';
}

/** The record's product entity its price can ride with, else undefined. */
export function findRide(entities: readonly MappedEntity[]): number | undefined {
  let price = -1;
  for (let j = 0; j < entities.length; j++) {
    if (entities[j]?.entity.operations.upsert?.operation.id === PRICES_OPERATION) price = j;
  }
  if (price < 0 || !pricesOnly((entities[price] as MappedEntity).entity)) return undefined;
  const key = (entities[price] as MappedEntity).key;
  for (let j = 0; j < entities.length; j++) {
    const m = entities[j] as MappedEntity;
    const ops = m.entity.operations;
    if (m.key !== key || (ops.upsert ?? ops.patch)?.operation.resource !== 'products') continue;
    if (ops.upsert?.binding.pricesInBatch || ops.patch?.binding.pricesInBatch) {
      return j;
    }
  }
  return undefined;
}

/**
 * The product's item with the price inside: its payload gets the price's `prices`, its state entry
 * stays the product's own (its hash, of the payload without them), and the price's rides as `also`.
 */
export function rideIn(
  product: DeliveryItem,
  price: DeliveryItem,
): { item: DeliveryItem; json: string } {
  const payload = {
    ...(product.payload as Record<string, unknown>),
    prices: (price.payload as Record<string, unknown>).prices,
  };
  return { item: { ...product, payload, also: [price] }, json: JSON.stringify(payload) };
}

/**
 * The price's own payload as it rode in a product's item (what it would have been sent as by
 * itself): the item's `prices`. What the payload history keeps for a riding price.
 */
export function riddenPrice(productPayload: unknown): Record<string, unknown> | undefined {
  if (typeof productPayload !== 'object' || productPayload === null) return undefined;
  const prices = (productPayload as Record<string, unknown>).prices;
  return prices === undefined ? undefined : { prices };
}

/** A product payload without the prices that rode in it: the product's own payload. */
export function withoutRiddenPrices(
  productPayload: Record<string, unknown>,
): Record<string, unknown> {
  const own = { ...productPayload };
  delete own.prices;
  return own;
}

/** Holds one record's planned items, then sends them with the price inside the product's item. */
export class PriceRide {
  private readonly held: Emitted[] = [];
  readonly hold: Sink = (ref, item, json) => {
    this.held.push({ ref, item, json });
  };

  constructor(private readonly product: MappedEntity) {}

  /**
   * Sends the held items. `productState`: the product's encoded state (it is live when the product
   * was not planned); returns whether a product counted unchanged is sent after all.
   */
  release(emit: Sink, productState: string | null, version: number): boolean {
    const held = this.held;
    const priceAt = held.findIndex((e) => e.ref.operation.id === PRICES_OPERATION);
    const productAt = held.findIndex(
      (e) => e.item.resource === this.product.entity.resource && e.item.key === this.product.key,
    );
    const carrier = priceAt < 0 ? undefined : this.carrier(held[productAt], productState, version);
    if (!carrier) {
      for (const e of held) emit(e.ref, e.item, e.json);
      return false;
    }
    const { item, json } = rideIn(carrier.item, (held[priceAt] as Emitted).item);
    for (let i = 0; i < held.length; i++) {
      const e = held[i] as Emitted;
      if (i === productAt) emit(carrier.ref, item, json);
      else if (i !== priceAt) emit(e.ref, e.item, e.json);
    }
    if (productAt < 0) emit(carrier.ref, item, json);
    return productAt < 0;
  }

  /** The product item the price rides in, with its operation; undefined when it cannot ride. */
  private carrier(
    planned: Emitted | undefined,
    productState: string | null,
    version: number,
  ): { ref: OperationRef; item: DeliveryItem } | undefined {
    if (planned?.ref.binding.pricesInBatch) return planned;
    const m = this.product;
    const { upsert, patch } = m.entity.operations;
    const full = m.payload as Record<string, unknown>;
    if (upsert?.binding.pricesInBatch) {
      // Planned as a patch its binding cannot carry prices in: the full upsert carries them.
      if (planned) return { ref: upsert, item: { ...planned.item, kind: 'upsert', payload: full } };
    } else if (planned || !patch?.binding.pricesInBatch) return undefined;
    if (productState === null) return undefined; // a new product is planned: never here
    // Unchanged: its full upsert, or where only the PATCH takes prices, a patch of its key alone.
    const kind = upsert?.binding.pricesInBatch ? 'upsert' : 'patch';
    const ref = (kind === 'upsert' ? upsert : patch) as OperationRef;
    const item: DeliveryItem = {
      resource: m.entity.resource,
      key: m.key,
      kind,
      payload: kind === 'upsert' ? full : { [ref.binding.keyField]: m.key },
      hash: contentHash(JSON.stringify(full)),
      version,
      baseVersion: stateVersion(productState),
      source: m.source,
    };
    if (m.entity.patchChanged) item.fieldHashes = fieldHashes(full);
    if (m.input !== undefined) item.input = m.input;
    return { ref, item };
  }
}
