/**
 * A description's text -> its document with every `$ref` resolved (what runs in the loading
 * worker, load-in-worker.ts): parsed, its version checked (Swagger 2.0 converted: swagger2.ts), the documents its `$ref`s name read
 * within its scope (ref-policy.ts) and size budget, dereferenced without expanding repeats.
 */
import { dereference, type Dereferenced } from './dereference.js';
import { type DocumentsBudget, readDocuments } from './external-documents.js';
import { pointerOf, resolvePointer } from './json-pointer.js';
import { OpenApiError } from './openapi-error.js';
import { parseText } from './parse-text.js';
import { scopeOf } from './ref-policy.js';
import { fromSwagger2 } from './swagger2.js';

export type Dialect = '3.0' | '3.1';

export interface Resolved extends Dereferenced {
  /** The schemas' dialect (a Swagger 2.0 description's are 3.0's once read). */
  dialect: Dialect;
  /** The version the file states, when it is Swagger 2.0. */
  swagger?: '2.0';
}

/** The version the file states: Swagger 2.0 (read as the 3.0 document it states) or OpenAPI 3.x. */
function checkVersion(source: string, doc: Record<string, unknown>): '2.0' | Dialect {
  if (doc.swagger !== undefined) {
    if (doc.swagger !== '2.0') {
      const version = JSON.stringify(doc.swagger);
      throw new OpenApiError(source, '/swagger', `Swagger ${version}: expected "2.0"`);
    }
    checkPaths(source, doc);
    return '2.0';
  }
  const version = doc.openapi;
  if (typeof version !== 'string') {
    throw new OpenApiError(source, '/openapi', 'not an OpenAPI document: no "openapi" version');
  }
  const dialect = /^3\.(0|1)(\.\d+)?$/.exec(version);
  if (!dialect) {
    throw new OpenApiError(source, '/openapi', `OpenAPI ${version}: expected 3.0.x or 3.1.x`);
  }
  checkPaths(source, doc);
  return dialect[1] === '0' ? '3.0' : '3.1';
}

function checkPaths(source: string, doc: Record<string, unknown>): void {
  if (!doc.paths || typeof doc.paths !== 'object' || Array.isArray(doc.paths)) {
    throw new OpenApiError(source, '/paths', 'expected an object of paths');
  }
}

/**
 * Every local `$ref` of a Swagger 2.0 file must lead somewhere, checked before its conversion
 * rewrites them, so the first that does not is named where it stands in the file.
 */
function checkLocalRefs(source: string, doc: Record<string, unknown>): void {
  const stack: { node: unknown; path: (string | number)[] }[] = [{ node: doc, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: unknown; path: (string | number)[] };
    if (!node || typeof node !== 'object') continue;
    const ref = (node as Record<string, unknown>).$ref;
    if (typeof ref === 'string' && ref.startsWith('#') && resolvePointer(doc, ref) === undefined) {
      throw new OpenApiError(source, pointerOf([...path, '$ref']), `$ref "${ref}" leads nowhere`);
    }
    for (const [key, child] of Object.entries(node))
      stack.push({ node: child, path: [...path, key] });
  }
}

/** `raw`: the text already parsed, where the caller has it. */
export async function resolveDescription(
  source: string,
  text: string,
  budget: DocumentsBudget,
  raw = parseText(source, text),
): Promise<Resolved> {
  const version = checkVersion(source, raw);
  if (version === '2.0') checkLocalRefs(source, raw);
  // Swagger 2.0 is read as the 3.0 document it states, before its one dereference.
  const root = version === '2.0' ? fromSwagger2(raw) : raw;
  const documents = await readDocuments(source, text, root, await scopeOf(source), budget);
  return {
    dialect: version === '2.0' ? '3.0' : version,
    ...(version === '2.0' ? { swagger: '2.0' as const } : {}),
    ...dereference(documents),
  };
}
