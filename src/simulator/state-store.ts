/**
 * The simulator's in-memory state: one Map per resource, keyed by externalId. Items are held as
 * JSON text, which keeps a million products to a few hundred megabytes (one string per item instead
 * of an object graph).
 */
export const STATE_RESOURCES = [
  'products',
  'categories',
  'stores',
  'users',
  'campaigns',
  'ageGroups',
  'discountCodes',
  'prices',
  'customers',
  'partners',
] as const;
export type StateResource = (typeof STATE_RESOURCES)[number];

export type Item = Record<string, unknown>;

export function isStateResource(name: string): name is StateResource {
  return (STATE_RESOURCES as readonly string[]).includes(name);
}

export class SimState {
  private readonly maps = new Map<StateResource, Map<string, string>>();
  /** The age group code, once a PUT has set it (GET answers synthetic data until then). */
  ageGroupCode: Item | null = null;
  private sequence = 0;

  constructor() {
    this.reset();
  }

  reset(): void {
    for (const resource of STATE_RESOURCES) this.maps.set(resource, new Map());
    this.ageGroupCode = null;
    this.sequence = 0;
  }

  private map(resource: StateResource): Map<string, string> {
    return this.maps.get(resource)!;
  }

  has(resource: StateResource, key: string): boolean {
    return this.map(resource).has(key);
  }

  get(resource: StateResource, key: string): Item | undefined {
    const text = this.map(resource).get(key);
    return text === undefined ? undefined : (JSON.parse(text) as Item);
  }

  put(resource: StateResource, key: string, item: Item): void {
    this.map(resource).set(key, JSON.stringify(item));
  }

  /** Stores an item already in JSON text (a write planned in a serving process). */
  putText(resource: StateResource, key: string, text: string): void {
    this.map(resource).set(key, text);
  }

  /** True when the key was there. */
  delete(resource: StateResource, key: string): boolean {
    return this.map(resource).delete(key);
  }

  size(resource: StateResource): number {
    return this.map(resource).size;
  }

  /** Items in insertion order, from `offset`, at most `limit`. */
  page(resource: StateResource, offset: number, limit: number): Item[] {
    const out: Item[] = [];
    let index = 0;
    for (const text of this.map(resource).values()) {
      if (index++ < offset) continue;
      if (out.length >= limit) break;
      out.push(JSON.parse(text) as Item);
    }
    return out;
  }

  all(resource: StateResource): Item[] {
    return this.page(resource, 0, Number.POSITIVE_INFINITY);
  }

  /** A key for items that carry none (customer details, partner signups). */
  nextId(prefix: string): string {
    this.sequence += 1;
    return `${prefix}-${this.sequence}`;
  }
}
