/**
 * A description with its `$ref`s replaced by what they point to, in time and memory linear in its
 * size: each place is copied once, and every `$ref` to it gets that one copy (the result is a
 * graph that shares nodes, never a tree that repeats them: a0..a30 whose properties each point
 * twice at the one below stays 31 schemas, not 2^31). A `$ref` back into a place being copied (a
 * circular schema) is left as a `$ref` object; `leftovers` says which place it stands for.
 * `homes` names each place a `$ref` led to where it is written: `#/components/schemas/Price`, or
 * `prices.yaml#/Price` in another file (file-pointers.ts).
 */
import { type Documents, refsOf } from './external-documents.js';
import { pointerOf, resolvePointer } from './json-pointer.js';
import { OpenApiBudgetError, OpenApiError } from './openapi-error.js';

/** How deep a resolved description may nest (objects and arrays): far beyond any real schema. */
export const MAX_DEPTH = 256;

export interface Dereferenced {
  doc: Record<string, unknown>;
  /** A place a `$ref` led to -> where it is written. */
  homes: Map<object, string>;
  /** A `$ref` left in place (circular) -> the place it stands for. */
  leftovers: Map<object, object>;
}

type Node = Record<string, unknown> | unknown[];
type Path = (string | number)[];

/** The document URL and pointer a `$ref` written in the document at `url` leads to. */
function targetOf(ref: string, url: string): { url: string; pointer: string } {
  const target = new URL(ref, url);
  // Still percent-encoded: resolvePointer decodes each token once.
  const pointer = target.hash.replace(/^#/, '');
  target.hash = '';
  return { url: target.href, pointer };
}

export function dereference(documents: Documents): Dereferenced {
  const { byUrl, labelOf, scope } = documents;
  const rootUrl = scope.root.href;
  const fail = (url: string, path: Path, message: string) =>
    new OpenApiError(labelOf(url), pointerOf(path), message);

  // Every place a `$ref` leads to, by its object in the documents as parsed: found by identity
  // while copying, so no pointer is built for the places no `$ref` names.
  const targets = new Map<object, string>();
  for (const [url, document] of byUrl) {
    for (const { ref, path } of refsOf(document)) {
      const target = targetOf(ref, url);
      if (!byUrl.has(target.url)) throw fail(url, path, `$ref "${ref}" names a document not read`);
      let raw: unknown;
      try {
        raw = resolvePointer(byUrl.get(target.url), target.pointer);
      } catch {
        throw fail(url, path, `$ref "${ref}" is not a valid JSON pointer`); // a stray `%`
      }
      if (raw === undefined) throw fail(url, path, `$ref "${ref}" leads nowhere`);
      if (raw && typeof raw === 'object' && !targets.has(raw)) {
        targets.set(raw, `${target.url === rootUrl ? '' : labelOf(target.url)}#${target.pointer}`);
      }
    }
  }

  const copies = new Map<object, unknown>();
  const copying = new Set<object>();
  const homes = new Map<object, string>();
  const pending: { leftover: object; raw: object }[] = [];

  function copy(raw: unknown, url: string, depth: number): unknown {
    if (!raw || typeof raw !== 'object') return raw;
    if (depth > MAX_DEPTH) {
      throw new OpenApiBudgetError(
        labelOf(rootUrl),
        'depth',
        `nests deeper than ${MAX_DEPTH} levels once its $refs are resolved (the depth budget of a description), so it is not read; ask the platform for a flatter description`,
      );
    }
    const done = copies.get(raw);
    if (done !== undefined) return done;
    const node = raw as Node;
    const ref = Array.isArray(node) ? undefined : node.$ref;
    if (typeof ref === 'string') {
      const target = targetOf(ref, url);
      const to = resolvePointer(byUrl.get(target.url), target.pointer);
      if (to && typeof to === 'object' && copying.has(to)) {
        const leftover = { ...node };
        pending.push({ leftover, raw: to });
        return leftover;
      }
      const value = copy(to, target.url, depth);
      const extra = Object.keys(node).filter((k) => k !== '$ref');
      if (extra.length === 0 || !value || typeof value !== 'object' || Array.isArray(value)) {
        return value;
      }
      // Keys beside a `$ref` (3.1's description, summary) kept on a copy of the place.
      const merged: Record<string, unknown> = { ...value };
      for (const k of extra) if (!(k in merged)) merged[k] = copy(node[k as never], url, depth + 1);
      const home = homes.get(value);
      if (home !== undefined) homes.set(merged, home);
      return merged;
    }
    const home = targets.get(node);
    if (home !== undefined) copying.add(node);
    const out: Node = Array.isArray(node) ? [] : {};
    for (const [k, child] of Object.entries(node)) {
      (out as Record<string, unknown>)[k] = copy(child, url, depth + 1);
    }
    if (home !== undefined) {
      copying.delete(node);
      copies.set(node, out);
      homes.set(out, home);
    }
    return out;
  }

  const doc = copy(byUrl.get(rootUrl), rootUrl, 0);
  const leftovers = new Map<object, object>();
  for (const { leftover, raw } of pending) {
    const target = copies.get(raw);
    if (target && typeof target === 'object') leftovers.set(leftover, target);
  }
  return { doc: doc as Record<string, unknown>, homes, leftovers };
}
