/**
 * Bindings as a description states them (docs/INTERFACE.md, The platform's OpenAPI description):
 * body shape (a JSON array, or an object whose one array property holds the items), maxItems,
 * whether products' items carry `prices`,
 * how a DELETE takes its keys (key objects or bare keys in the body, a repeated or comma-separated
 * query parameter, one per request in the path), whether an operation needs no credential
 * (`security: []`) and the OAuth2 scopes it names, and the path (the description's own
 * template, its parameters renamed to the catalog's, position for position: names never reach the
 * URL). Only what the description says is returned; defaults and config fill in the rest.
 */
import type { BindingConfig } from '../../config/index.js';
import { OPERATIONS } from '../catalog.js';
import type { DescribedOperation, Schema } from './described-operations.js';
import type { CatalogMatch } from './match-catalog.js';
import { describedAnswers, describedPaging } from './described-answers.js';

import { isSchemaObject as isObject, objectShape, typesOf } from './json-schema.js';

/** The items' array schema of a collection body and the envelope property that holds it, if any. */
export function itemsArrayOf(
  schema: Schema | undefined,
): { array: Schema; envelope?: string } | undefined {
  if (!schema) return undefined;
  if (typesOf(schema).includes('array') || isObject(schema.items)) return { array: schema };
  const props = isObject(schema.properties) ? schema.properties : {};
  const arrays = Object.entries(props).filter(
    ([, p]) => isObject(p) && (typesOf(p).includes('array') || isObject(p.items)),
  );
  if (arrays.length !== 1) return undefined;
  const [name, array] = arrays[0] as [string, Schema];
  return { array, envelope: name };
}

/** Whether a collection's item schema has a `prices` property (a product's prices ride along). */
function carriesPrices(array: Schema): boolean {
  return isObject(array.items) && 'prices' in objectShape(array.items).properties;
}

/** The array query parameter a body-less DELETE takes its keys by. */
function deleteQueryParam(
  op: DescribedOperation,
): DescribedOperation['parameters'][number] | undefined {
  return op.parameters.find(
    (p) =>
      p.in === 'query' &&
      p.schema &&
      (typesOf(p.schema).includes('array') || isObject(p.schema.items)),
  );
}

/** A described item that is a bare key: a string, not an object. */
function isBareKey(item: unknown): boolean {
  if (!isObject(item)) return false;
  const types = typesOf(item);
  return types.includes('string') && !types.includes('object') && !isObject(item.properties);
}

/**
 * The property a described key object names its key by, when it is not `externalId`: the one
 * property it has (`{"sku": "10004"}`), or its one required property.
 */
function describedKeyField(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const { properties, required } = objectShape(item);
  const names = Object.keys(properties);
  if (names.includes('externalId')) return undefined;
  if (names.length === 1) return names[0];
  return required.length === 1 ? required[0] : undefined;
}

/** How a described DELETE takes its keys; what the binding says of it. */
function deleteBinding(op: DescribedOperation): BindingConfig {
  const body = itemsArrayOf(op.requestSchema);
  if (body && isBareKey(body.array.items)) return { deleteStyle: 'keys' };
  if (body) {
    const keyField = describedKeyField(body.array.items);
    return { deleteStyle: 'body', ...(keyField ? { keyField } : {}) };
  }
  if (op.requestSchema) return {};
  // One request per key: the described path has a parameter (the catalog's collection has none).
  if (/\{[^}/]+\}/.test(op.path)) return { deleteStyle: 'path' };
  const param = deleteQueryParam(op);
  if (!param) return {};
  const binding: BindingConfig = {
    // OpenAPI's query default is form, explode: true (?ids=a&ids=b); explode false is ?ids=a,b.
    deleteStyle: param.explode === false ? 'csv' : 'query',
    deleteQueryParam: param.name,
  };
  if (typeof param.schema?.maxItems === 'number' && param.schema.maxItems > 0) {
    binding.maxItems = param.schema.maxItems;
  }
  return binding;
}

/** The described path with the catalog's parameter names, or undefined when they have none. */
function renamedPath(described: string, catalogParams: readonly string[]): string {
  let i = 0;
  return described.replace(/\{[^}/]+\}/g, () => `{${catalogParams[i++] ?? `p${i}`}}`);
}

export function describedBindings(match: CatalogMatch): Record<string, BindingConfig> {
  const out: Record<string, BindingConfig> = {};
  for (const operation of OPERATIONS) {
    const op = match.matched.get(operation.id);
    if (!op) continue;
    const binding: BindingConfig = {};
    if (op.path !== operation.path) binding.path = renamedPath(op.path, operation.pathParams);
    if (op.open) binding.public = true;
    const scopes = op.scopes[0] ?? [];
    if (!op.open && scopes.length > 0) binding.scopes = scopes;
    const collection =
      operation.kind === 'upsert' || operation.kind === 'patch' || operation.kind === 'delete';
    if (collection) {
      const body = itemsArrayOf(op.requestSchema);
      if (body) {
        if (body.envelope) binding.envelope = body.envelope;
        if (typeof body.array.maxItems === 'number' && body.array.maxItems > 0) {
          binding.maxItems = body.array.maxItems;
        }
        if (operation.resource === 'products' && operation.kind !== 'delete') {
          if (carriesPrices(body.array)) binding.pricesInBatch = true;
        }
      }
      if (operation.kind === 'delete') Object.assign(binding, deleteBinding(op));
    }
    if (operation.kind === 'read') {
      const paging = describedPaging(op);
      if (paging) binding.paging = paging;
    }
    const answers = describedAnswers(op, 'externalId');
    if (answers) binding.answers = answers;
    if (Object.keys(binding).length > 0) out[operation.id] = binding;
  }
  return out;
}
