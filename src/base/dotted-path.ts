/** A value inside JSON by a dotted path of property names (`meta.nextCursor`; '' is the value). */

export function atDottedPath(value: unknown, path: string): unknown {
  if (path === '') return value;
  let at = value;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Sets `path` in `target`, making the objects on the way ('' is not a path here). */
export function setDottedPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = target;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    at = (
      next && typeof next === 'object' && !Array.isArray(next) ? next : (at[key] = {})
    ) as Record<string, unknown>;
  }
  at[keys[keys.length - 1]!] = value;
}
