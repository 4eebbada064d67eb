/** JSON pointers (RFC 6901): the address of a place in a description or a payload. */

export const escapeToken = (token: string | number): string =>
  String(token).replace(/~/g, '~0').replace(/\//g, '~1');

export const pointerOf = (tokens: readonly (string | number)[]): string =>
  tokens.map((t) => `/${escapeToken(t)}`).join('');

/** The value at a local pointer (`#/a/b` or `/a/b`), or undefined where it leads nowhere. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#/, '');
  if (path === '') return doc;
  let node: unknown = doc;
  for (const raw of path.slice(1).split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
