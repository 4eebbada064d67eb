/**
 * The documents a description's external `$ref`s name, read once each within the description's
 * scope (ref-policy.ts) and its size budget, and parsed without quoting them in errors.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pointerOf } from './json-pointer.js';
import { OpenApiBudgetError, OpenApiError } from './openapi-error.js';
import { parseText } from './parse-text.js';
import { readSource } from './read-source.js';
import { allowedTarget, type RefScope } from './ref-policy.js';

/** A description and the documents it refers to, by URL (no fragment). */
export interface Documents {
  scope: RefScope;
  byUrl: Map<string, unknown>;
  /** How a document is named in messages: the source for the description, else its path or URL. */
  labelOf(url: string): string;
}

export interface DocumentsBudget {
  /** Bytes of every document together. */
  maxBytes: number;
  /** Documents besides the description. */
  maxDocuments: number;
}

/** Every `$ref` string of a document with where it stands (iterative: no stack to overflow). */
export function refsOf(doc: unknown): { ref: string; path: (string | number)[] }[] {
  const out: { ref: string; path: (string | number)[] }[] = [];
  const stack: { node: unknown; path: (string | number)[] }[] = [{ node: doc, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: unknown; path: (string | number)[] };
    if (!node || typeof node !== 'object') continue;
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === 'string') out.push({ ref, path: [...path, '$ref'] });
    for (const [key, child] of Object.entries(node))
      if (child && typeof child === 'object') stack.push({ node: child, path: [...path, key] });
  }
  return out;
}

/** Reads the documents `root`'s external `$ref`s lead to (and theirs), each once. */
export async function readDocuments(
  source: string,
  text: string,
  root: unknown,
  scope: RefScope,
  budget: DocumentsBudget,
): Promise<Documents> {
  const byUrl = new Map<string, unknown>([[scope.root.href, root]]);
  const labelOf = (url: string): string => {
    if (url === scope.root.href) return source;
    if (scope.folder === undefined) return url;
    return relative(scope.folder, fileURLToPath(url));
  };
  let bytes = Buffer.byteLength(text);
  const queue = [scope.root.href];
  for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
    for (const { ref, path } of refsOf(byUrl.get(url))) {
      if (ref.startsWith('#')) continue;
      const site = { source: labelOf(url), pointer: pointerOf(path) };
      const target = (await allowedTarget(ref, new URL(url), scope, site)).href;
      if (byUrl.has(target)) continue;
      if (byUrl.size > budget.maxDocuments) {
        throw new OpenApiBudgetError(
          source,
          'documents',
          `its $refs name more than ${budget.maxDocuments} documents (the budget of documents a description may refer to); bundle it into fewer files`,
        );
      }
      const where = scope.folder === undefined ? target : fileURLToPath(target);
      let read;
      try {
        read = await readSource(where, {}, budget.maxBytes - bytes);
      } catch (error) {
        if (error instanceof OpenApiBudgetError) {
          throw new OpenApiBudgetError(
            source,
            'size',
            `with the documents its $refs name, larger than ${Math.round(budget.maxBytes / 1024 / 1024)} MB (the size budget of a description); not read further`,
          );
        }
        if (!(error instanceof OpenApiError)) throw error;
        throw new OpenApiError(site.source, site.pointer, `$ref "${ref}": ${error.message}`);
      }
      if (read.notModified) throw new Error('unconditional read answered 304'); // cannot happen
      bytes += Buffer.byteLength(read.text);
      byUrl.set(target, parseText(labelOf(target), read.text, false));
      queue.push(target);
    }
  }
  return { scope, byUrl, labelOf };
}
