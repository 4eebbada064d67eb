/**
 * Bindings as a description states them (docs/INTERFACE.md, The platform's OpenAPI description):
 * body shape (a JSON array, or an object whose one array property holds the items), maxItems,
 * whether products' items carry `prices`,
 * delete by body or by a repeated array query parameter, and the path (the description's own
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
function deleteQueryParam(op: DescribedOperation): string | undefined {
  return op.parameters.find(
    (p) =>
      p.in === 'query' &&
      p.schema &&
      (typesOf(p.schema).includes('array') || isObject(p.schema.items)),
  )?.name;
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
    const collection =
      operation.kind === 'upsert' || operation.kind === 'patch' || operation.kind === 'delete';
    if (collection) {
      const body = itemsArrayOf(op.requestSchema);
      if (body) {
        if (body.envelope) binding.envelope = body.envelope;
        if (typeof body.array.maxItems === 'number' && body.array.maxItems > 0) {
          binding.maxItems = body.array.maxItems;
        }
        if (operation.kind === 'delete') binding.deleteStyle = 'body';
        else if (operation.resource === 'products' && carriesPrices(body.array)) {
          binding.pricesInBatch = true;
        }
      } else if (operation.kind === 'delete' && !op.requestSchema) {
        const param = deleteQueryParam(op);
        if (param) {
          binding.deleteStyle = 'query';
          binding.deleteQueryParam = param;
          const schema = op.parameters.find((p) => p.name === param)?.schema;
          if (typeof schema?.maxItems === 'number' && schema.maxItems > 0) {
            binding.maxItems = schema.maxItems;
          }
        }
      }
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
