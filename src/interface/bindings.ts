/**
 * Bindings: how each operation's target and body are shaped. The spec leaves this unstated, so the
 * defaults (docs/INTERFACE.md, Bindings) live here and `interface.bindings.<operationId>` in the
 * config overrides them per operation; a platform that differs is served by configuration, not
 * code.
 */
import type { AnswersConfig, BindingConfig, DeleteStyle, PagingConfig } from '../config/index.js';
import { ConfigError } from '../errors/index.js';
import { OPERATIONS, findOperation, type Operation } from './catalog.js';
import { mergeBindings } from './openapi/contract-bindings.js';

export type BodyShape =
  | 'items' // JSON array of items (PUT/PATCH/DELETE on a collection)
  | 'object' // one JSON object (entity writes, actions)
  | 'none'; // no body (GET, and DELETE with deleteStyle `query`, `csv` or `path`)

export interface Binding {
  readonly operation: Operation;
  readonly path: string;
  readonly body: BodyShape;
  /** Items per request; 1 for operations addressed by a path parameter. */
  readonly maxItems: number;
  readonly maxBytes: number;
  readonly deleteStyle: DeleteStyle;
  readonly deleteQueryParam: string;
  readonly keyField: string;
  /** A collection body wrapped in an object: the property that holds the items' array. */
  readonly envelope: string | undefined;
  /** Sent without any credential (the description's `security: []`). */
  readonly public: boolean;
  /** OAuth2: the scopes its token must carry; undefined: `interface.auth.scope`. */
  readonly scopes: readonly string[] | undefined;
  /** products.put / products.patch: items may carry `prices` (the planner then batches prices). */
  readonly pricesInBatch: boolean;
  /** A read's pages: how they are asked for and followed (read-pages.ts). */
  readonly paging: PagingConfig;
  /** Where refusals and per-item results put their words (answer-words.ts). */
  readonly answers: AnswersConfig;
}

/** Ferry's assumed listing: `?page=&pageSize=`, answered `{items, page, pageSize, total}`. */
const DEFAULT_PAGING: PagingConfig = { items: 'items', page: 'page', size: 'pageSize' };

/** Where a binding's setting came from (`ferry interface check` shows it). */
export type BindingOrigin = 'description' | 'config' | 'default';
export const BINDING_SETTINGS = [
  'path',
  'maxItems',
  'maxBytes',
  'deleteStyle',
  'deleteQueryParam',
  'keyField',
  'envelope',
  'pricesInBatch',
  'public',
  'scopes',
] as const;
export type BindingSetting = (typeof BINDING_SETTINGS)[number];

export const DEFAULT_MAX_ITEMS = 100;
export const DEFAULT_MAX_BYTES = 1024 * 1024;

function defaultBinding(operation: Operation): Binding {
  const batch =
    operation.kind === 'upsert' || operation.kind === 'patch' || operation.kind === 'delete';
  return {
    operation,
    path: operation.path,
    body: batch ? 'items' : operation.method === 'GET' ? 'none' : 'object',
    maxItems: batch ? DEFAULT_MAX_ITEMS : 1,
    maxBytes: DEFAULT_MAX_BYTES,
    deleteStyle: 'body',
    deleteQueryParam: 'externalId',
    keyField: 'externalId',
    envelope: undefined,
    public: false,
    scopes: undefined,
    pricesInBatch: false,
    paging: DEFAULT_PAGING,
    answers: {},
  };
}

/** A DELETE whose keys go in the query string or the path: it has no body. */
function keylessDelete(isDelete: boolean, style: DeleteStyle): boolean {
  return isDelete && (style === 'query' || style === 'csv' || style === 'path');
}

/**
 * The binding of every operation: defaults, then what the platform's description states
 * (`described`, src/interface/openapi), then `interface.bindings`, setting by setting.
 */
export function resolveBindings(
  configured: Record<string, BindingConfig> = {},
  described: Record<string, BindingConfig> = {},
): Map<string, Binding> {
  const overrides = mergeBindings(configured, described);
  const unknown = Object.keys(overrides).filter((id) => !findOperation(id));
  if (unknown.length > 0) {
    throw new ConfigError(
      'interface.bindings',
      unknown.map((id) => ({
        path: `interface.bindings.${id}`,
        message: 'not an operation id (run `ferry operations` for the list)',
      })),
    );
  }
  const bindings = new Map<string, Binding>();
  for (const operation of OPERATIONS) {
    const base = defaultBinding(operation);
    const o = overrides[operation.id] ?? {};
    const deleteStyle = o.deleteStyle ?? base.deleteStyle;
    const batchable = operation.kind === 'upsert' || operation.kind === 'patch';
    const isDelete = operation.kind === 'delete';
    // One request per key in the path: one item per request.
    const single = base.maxItems === 1 || (isDelete && deleteStyle === 'path');
    bindings.set(operation.id, {
      ...base,
      path: o.path ?? base.path,
      maxItems: single ? 1 : (o.maxItems ?? base.maxItems),
      maxBytes: o.maxBytes ?? base.maxBytes,
      deleteStyle,
      deleteQueryParam: o.deleteQueryParam ?? base.deleteQueryParam,
      keyField: o.keyField ?? base.keyField,
      public: o.public === true,
      scopes: o.scopes,
      envelope:
        base.body === 'items' && !keylessDelete(isDelete, deleteStyle) ? o.envelope : undefined,
      pricesInBatch: operation.resource === 'products' && batchable && o.pricesInBatch === true,
      body: keylessDelete(isDelete, deleteStyle) ? 'none' : base.body,
      paging: o.paging ?? base.paging,
      answers: o.answers ?? base.answers,
    });
  }
  return bindings;
}

/** Per operation and setting: config when `interface.bindings` sets it, else the description's. */
export function bindingOrigins(
  configured: Record<string, BindingConfig> = {},
  described: Record<string, BindingConfig> = {},
): Map<string, Record<BindingSetting, BindingOrigin>> {
  const origins = new Map<string, Record<BindingSetting, BindingOrigin>>();
  for (const operation of OPERATIONS) {
    const c = configured[operation.id] ?? {};
    const d = described[operation.id] ?? {};
    const row = {} as Record<BindingSetting, BindingOrigin>;
    for (const setting of BINDING_SETTINGS) {
      row[setting] =
        c[setting] !== undefined ? 'config' : d[setting] !== undefined ? 'description' : 'default';
    }
    origins.set(operation.id, row);
  }
  return origins;
}
