/**
 * Matches a description's operations to the catalog's 31 by method and path template; parameter
 * names may differ (`/products/{id}/prices` matches `/products/{productId}/prices`); a collection's
 * DELETE also matches one by key in the path (`DELETE /products/{id}`). Says which
 * listing the description is: A when it has every A-only operation and no B-only one, B the other
 * way round, null otherwise.
 */
import type { Listing } from '../../config/index.js';
import { OPERATIONS, type Operation } from '../catalog.js';
import type { DescribedOperation } from './described-operations.js';

export interface CatalogMatch {
  /** Catalog id -> the described operation it matched. */
  matched: Map<string, DescribedOperation>;
  /** Catalog operations the description lacks. */
  missing: Operation[];
  /** Described operations outside the catalog. */
  extra: DescribedOperation[];
  listing: Listing | null;
}

/** `/a/{x}/b/` -> `/a/{}/b`: the shape that decides a match. */
export const templateShape = (path: string): string =>
  path.replace(/\{[^}/]+\}/g, '{}').replace(/(.)\/+$/, '$1');

const shapeKey = (method: string, path: string) => `${method} ${templateShape(path)}`;

function listingOf(matched: ReadonlySet<string>): Listing | null {
  const only = (l: Listing) =>
    OPERATIONS.filter((o) => o.listings.length === 1 && o.listings[0] === l);
  const has = (ops: Operation[]) => ops.some((o) => matched.has(o.id));
  const all = (ops: Operation[]) => ops.every((o) => matched.has(o.id));
  if (all(only('A')) && !has(only('B'))) return 'A';
  if (all(only('B')) && !has(only('A'))) return 'B';
  return null;
}

export function matchCatalog(described: readonly DescribedOperation[]): CatalogMatch {
  const byShape = new Map(described.map((d) => [shapeKey(d.method, d.path), d]));
  const matched = new Map<string, DescribedOperation>();
  const missing: Operation[] = [];
  for (const operation of OPERATIONS) {
    const found =
      byShape.get(shapeKey(operation.method, operation.path)) ??
      // A collection's DELETE may take one key per request in the path (`/products/{id}`).
      (operation.kind === 'delete'
        ? byShape.get(shapeKey(operation.method, `${operation.path}/{}`))
        : undefined);
    if (found) matched.set(operation.id, found);
    else missing.push(operation);
  }
  const used = new Set(matched.values());
  const extra = described.filter((d) => !used.has(d));
  return { matched, missing, extra, listing: listingOf(new Set(matched.keys())) };
}
