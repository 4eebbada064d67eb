/**
 * Reads the platform's OpenAPI description (docs/INTERFACE.md, The platform's OpenAPI description):
 * a file or URL, JSON or YAML, OpenAPI 3.0 or 3.1 (or Swagger 2.0, read as the 3.0 document it
 * states: swagger2.ts), every `$ref` resolved within the description's
 * scope and budgets, in a worker thread where it is large or names other documents
 * (load-in-worker.ts). A document that is not OpenAPI, or a
 * `$ref` that leads nowhere, is an OpenApiError naming the source and the JSON pointer; a `$ref`
 * outside the scope an OpenApiRefRefusedError; a budget exceeded an OpenApiBudgetError.
 */
import { createHash } from 'node:crypto';
import { rememberPlaces } from './file-pointers.js';
import { DEFAULT_LOAD_BUDGET, type LoadBudget, resolveBounded } from './load-in-worker.js';
import { readSource, type SourceValidators } from './read-source.js';

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
  /**
   * The document with every `$ref` replaced by what it points to: a place named by several `$ref`s
   * is one shared object; a circular `$ref` stays a `$ref` (file-pointers.ts says where each is).
   */
  doc: OpenApiDoc;
  /** The text as read (what `ferry interface pull` pins). */
  text: string;
  validators: SourceValidators;
}

/** How a description is loaded: a stop signal (Ctrl-C, SIGTERM) and the budgets. */
export interface LoadOptions {
  signal?: AbortSignal;
  budget?: Partial<LoadBudget>;
}

export const sha256Of = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Parses and dereferences a description's text (`source` resolves relative external refs). */
export async function describe(
  source: string,
  text: string,
  validators: SourceValidators = {},
  options: LoadOptions = {},
): Promise<Description> {
  const budget = { ...DEFAULT_LOAD_BUDGET, ...options.budget };
  const resolved = await resolveBounded(source, text, budget, options.signal);
  rememberPlaces(resolved);
  const doc = resolved.doc;
  const info = (doc.info ?? {}) as { title?: unknown; version?: unknown };
  return {
    source,
    sha256: sha256Of(text),
    ...(typeof info.title === 'string' ? { title: info.title } : {}),
    ...(typeof info.version === 'string' ? { version: info.version } : {}),
    dialect: resolved.dialect,
    ...(resolved.swagger ? { swagger: resolved.swagger } : {}),
    doc,
    text,
    validators,
  };
}

/** Reads and describes `source` (a file path or an http(s) URL). */
export async function loadDescription(
  source: string,
  options: LoadOptions = {},
): Promise<Description> {
  const max = options.budget?.maxBytes ?? DEFAULT_LOAD_BUDGET.maxBytes;
  const read = await readSource(source, {}, max, options.signal);
  if (read.notModified) throw new Error('unconditional read answered 304'); // cannot happen
  return describe(source, read.text, read.validators, options);
}
