/**
 * Prices restored by an undo ride in their products' items, as they went forward
 * (docs/DELIVERY.md, Prices in product batches): a product restored through an operation whose
 * binding takes `prices` (pricesInBatch) carries the price restored with it, and the price's state
 * entry rides as the item's `also`. A price whose product the undo does not restore (or not through
 * such an operation) goes by the price operation. A product's kept payload may hold prices that
 * rode in it: they are not the product's own, so its restored payload (and hash) leaves them out.
 */
import type { EntityDefinition, OperationRef } from '../definition/definition-types.js';
import { PRICES_OPERATION, rideIn, withoutRiddenPrices } from '../planner/price-ride.js';
import type { DeliveryItem } from '../types.js';

type Sink = (ref: OperationRef, item: DeliveryItem, json: string) => void;

interface Held {
  ref: OperationRef;
  item: DeliveryItem;
  json: string;
}

const isPrice = (entity: EntityDefinition): boolean =>
  entity.operations.upsert?.operation.id === PRICES_OPERATION;

const isProduct = (entity: EntityDefinition): boolean =>
  (entity.operations.upsert ?? entity.operations.patch)?.operation.resource === 'products';

export class UndoRide {
  /** Whether the pipeline has a price entity (its prices ride in products' items, or may have). */
  private readonly withPrices: boolean;
  /** Restorations waiting for their partner, by key. */
  private readonly products = new Map<string, Held>();
  private readonly prices = new Map<string, Held>();

  constructor(
    entities: readonly EntityDefinition[],
    private readonly emit: Sink,
  ) {
    this.withPrices = entities.some(isPrice);
  }

  /** The payload to restore `entity` with: a product's without the prices that rode in it. */
  restorePayload(
    entity: EntityDefinition,
    payload: Record<string, unknown>,
  ): Record<string, unknown> {
    return this.withPrices && isProduct(entity) ? withoutRiddenPrices(payload) : payload;
  }

  /** Sends an undo item, or holds a product's or its price's until the other comes. */
  add(entity: EntityDefinition, ref: OperationRef, item: DeliveryItem, json: string): void {
    const { key } = item;
    if (
      this.withPrices &&
      isProduct(entity) &&
      item.kind === 'upsert' &&
      ref.binding.pricesInBatch
    ) {
      const price = this.prices.get(key);
      if (!price) this.products.set(key, { ref, item, json });
      else {
        this.prices.delete(key);
        this.ride({ ref, item, json }, price);
      }
    } else if (isPrice(entity)) {
      const product = this.products.get(key);
      if (!product) this.prices.set(key, { ref, item, json });
      else {
        this.products.delete(key);
        this.ride(product, { ref, item, json });
      }
    } else this.emit(ref, item, json);
  }

  /** Sends what waited in vain: a product restored without its price, a price by itself. */
  finish(): void {
    for (const h of this.products.values()) this.emit(h.ref, h.item, h.json);
    for (const h of this.prices.values()) this.emit(h.ref, h.item, h.json);
    this.products.clear();
    this.prices.clear();
  }

  private ride(product: Held, price: Held): void {
    const { item, json } = rideIn(product.item, price.item);
    this.emit(product.ref, item, json);
  }
}
