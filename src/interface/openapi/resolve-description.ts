/**
 * A description's text -> its document with every `$ref` resolved (what runs in the loading
 * worker, load-in-worker.ts): parsed, its version checked, the documents its `$ref`s name read
 * within its scope (ref-policy.ts) and size budget, dereferenced without expanding repeats.
 */
import { dereference, type Dereferenced } from './dereference.js';
import { type DocumentsBudget, readDocuments } from './external-documents.js';
import { OpenApiError } from './openapi-error.js';
import { parseText } from './parse-text.js';
import { scopeOf } from './ref-policy.js';

export type Dialect = '3.0' | '3.1';

export interface Resolved extends Dereferenced {
  dialect: Dialect;
}

function checkVersion(source: string, doc: Record<string, unknown>): Dialect {
  if (typeof doc.swagger === 'string') {
    throw new OpenApiError(source, '/swagger', `Swagger ${doc.swagger} is not OpenAPI 3.0 or 3.1`);
  }
  const version = doc.openapi;
  if (typeof version !== 'string') {
    throw new OpenApiError(source, '/openapi', 'not an OpenAPI document: no "openapi" version');
  }
  const dialect = /^3\.(0|1)(\.\d+)?$/.exec(version);
  if (!dialect) {
    throw new OpenApiError(source, '/openapi', `OpenAPI ${version}: expected 3.0.x or 3.1.x`);
  }
  if (!doc.paths || typeof doc.paths !== 'object' || Array.isArray(doc.paths)) {
    throw new OpenApiError(source, '/paths', 'expected an object of paths');
  }
  return dialect[1] === '0' ? '3.0' : '3.1';
}

/** `raw`: the text already parsed, where the caller has it. */
export async function resolveDescription(
  source: string,
  text: string,
  budget: DocumentsBudget,
  raw = parseText(source, text),
): Promise<Resolved> {
  const dialect = checkVersion(source, raw);
  const documents = await readDocuments(source, text, raw, await scopeOf(source), budget);
  return { dialect, ...dereference(documents) };
}
