/**
 * Reads the platform's OpenAPI description (docs/INTERFACE.md, The platform's OpenAPI description):
 * a file or URL, JSON or YAML, OpenAPI 3.0 or 3.1 (or Swagger 2.0, read as the 3.0 document it
 * states: swagger2.ts), every `$ref` resolved by
 * @apidevtools/swagger-parser. A document that is not OpenAPI, or a `$ref` that leads nowhere, is an
 * OpenApiError naming the source and the JSON pointer.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { OpenApiError } from './openapi-error.js';
import { pointerOf, resolvePointer } from './json-pointer.js';
import { parseText } from './parse-text.js';
import { fromSwagger2 } from './swagger2.js';
import { isUrl, readSource, type SourceValidators } from './read-source.js';

export type OpenApiDoc = Record<string, unknown>;

export interface Description {
  /** The file path or URL it was read from. */
  source: string;
  /** sha256 of the text as read: what is pinned and compared. */
  sha256: string;
  title?: string;
  version?: string;
  /** The schemas' dialect (a Swagger 2.0 description's are 3.0's once read). */
  dialect: '3.0' | '3.1';
  /** The version the file states, when it is Swagger 2.0. */
  swagger?: '2.0';
  /** The document with every `$ref` replaced by what it points to. */
  doc: OpenApiDoc;
  /** The text as read (what `ferry interface pull` pins). */
  text: string;
  validators: SourceValidators;
}

export const sha256Of = (text: string): string => createHash('sha256').update(text).digest('hex');

function checkVersion(source: string, doc: OpenApiDoc): '2.0' | '3.0' | '3.1' {
  if (doc.swagger !== undefined) {
    if (doc.swagger !== '2.0') {
      const version = JSON.stringify(doc.swagger);
      throw new OpenApiError(source, '/swagger', `Swagger ${version}: expected "2.0"`);
    }
    if (!doc.paths || typeof doc.paths !== 'object' || Array.isArray(doc.paths)) {
      throw new OpenApiError(source, '/paths', 'expected an object of paths');
    }
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
  if (!doc.paths || typeof doc.paths !== 'object' || Array.isArray(doc.paths)) {
    throw new OpenApiError(source, '/paths', 'expected an object of paths');
  }
  return dialect[1] === '0' ? '3.0' : '3.1';
}

/** Every local `$ref` must lead somewhere: the first that does not is named by where it stands. */
function checkLocalRefs(source: string, doc: OpenApiDoc): void {
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

/** Parses and dereferences a description's text (`source` resolves relative external refs). */
export async function describe(
  source: string,
  text: string,
  validators: SourceValidators = {},
): Promise<Description> {
  const read = parseText(source, text);
  const version = checkVersion(source, read);
  checkLocalRefs(source, read);
  // Swagger 2.0 is read as the 3.0 document it states, before its one dereference.
  const raw = version === '2.0' ? fromSwagger2(read) : read;
  const dialect = version === '2.0' ? '3.0' : version;
  let doc: OpenApiDoc;
  try {
    const base = isUrl(source) ? source : resolve(source);
    doc = (await SwaggerParser.dereference(base, raw as never, {
      dereference: { circular: 'ignore' },
    })) as unknown as OpenApiDoc;
  } catch (error) {
    const e = error as Error & { path?: (string | number)[] };
    const pointer = Array.isArray(e.path) ? pointerOf(e.path) : '';
    throw new OpenApiError(source, pointer, `a $ref cannot be resolved: ${e.message}`);
  }
  const info = (doc.info ?? {}) as { title?: unknown; version?: unknown };
  return {
    source,
    sha256: sha256Of(text),
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    ...(typeof info.version === 'string' ? { version: info.version } : {}),
    dialect,
    ...(version === '2.0' ? { swagger: '2.0' as const } : {}),
    doc,
    text,
    validators,
  };
}

/** Reads and describes `source` (a file path or an http(s) URL). */
export async function loadDescription(source: string): Promise<Description> {
  const read = await readSource(source);
  if (read.notModified) throw new Error('unconditional read answered 304'); // cannot happen
  return describe(source, read.text, read.validators);
}
