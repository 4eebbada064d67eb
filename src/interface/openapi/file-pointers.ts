/**
 * Where a resolved description's nodes are written (dereference.ts): a place a `$ref` led to is
 * named by its own pointer in its file (`#/components/schemas/Price`), so messages about a
 * property point where it is written, through the `$ref` that holds it, not into the resolved
 * copy. Kept beside the document (weakly: it goes when the document goes).
 */
const homes = new WeakMap<object, string>();
const leftovers = new WeakMap<object, object>();

/** Records what the loader found (dereference.ts's `homes` and `leftovers`). */
export function rememberPlaces(found: {
  homes: Map<object, string>;
  leftovers: Map<object, object>;
}): void {
  for (const [node, home] of found.homes) homes.set(node, home);
  for (const [leftover, target] of found.leftovers) leftovers.set(leftover, target);
}

/** Where a node a `$ref` led to is written, or undefined for a node written in place. */
export const homeOf = (node: unknown): string | undefined =>
  node && typeof node === 'object' ? homes.get(node) : undefined;

/** The node a circular `$ref` left in place stands for. */
export const leftoverTarget = (node: unknown): object | undefined =>
  node && typeof node === 'object' ? leftovers.get(node) : undefined;

/** A node's pointer: its home when a `$ref` led to it, else `pointer` (where it was reached). */
export const placeOf = (node: unknown, pointer: string): string => homeOf(node) ?? pointer;
