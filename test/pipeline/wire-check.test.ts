/**
 * The body of a planned delete or patch as it goes on the wire, against the description
 * (src/pipeline/contract/wire-check.ts): the shape the binding makes of a delete's keys, a key
 * against the described path parameter, a snapshot's changed fields against the PATCH item schema.
 */
import { describe, expect, it } from 'vitest';
import type { BindingConfig } from '../../src/config/schema.js';
import { resolveBindings } from '../../src/interface/bindings.js';
import { findOperation } from '../../src/interface/catalog.js';
import { describedBindings } from '../../src/interface/openapi/described-bindings.js';
import { describedOperations } from '../../src/interface/openapi/described-operations.js';
import { createSchemaCompiler } from '../../src/interface/openapi/item-contract.js';
import { matchCatalog } from '../../src/interface/openapi/match-catalog.js';
import { wireCheckOf } from '../../src/pipeline/contract/wire-check.js';
import type { DeliveryItem } from '../../src/pipeline/types.js';

const KEY = { type: 'string', pattern: '^[0-9]+$' };

function description(paths: Record<string, unknown>) {
  return { openapi: '3.1.0', info: { title: 't', version: '1' }, paths };
}

/** The check of `operationId` against `paths`, with `configured` bindings over the described ones. */
function checkOf(
  operationId: string,
  paths: Record<string, unknown>,
  configured: Record<string, BindingConfig> = {},
) {
  const match = matchCatalog(describedOperations(description(paths)));
  const binding = resolveBindings(configured, describedBindings(match)).get(operationId)!;
  const ref = { operation: findOperation(operationId)!, binding };
  const compile = createSchemaCompiler('inline.yaml', '3.1');
  return { binding, check: wireCheckOf('catalog', ref, match.matched.get(operationId)!, compile) };
}

const item = (key: string, payload: unknown = { externalId: key }): DeliveryItem => ({
  resource: 'products',
  key,
  kind: 'delete',
  payload,
  hash: '',
  version: 1,
  baseVersion: 1,
});

/** Paths with one DELETE of the products whose JSON body is `schema`. */
const deleteTaking = (schema: unknown) => ({
  '/external/api/products': {
    delete: { requestBody: { content: { 'application/json': { schema } } } },
  },
});

const bareKeys = deleteTaking({
  type: 'object',
  required: ['externalIds'],
  properties: { externalIds: { type: 'array', items: KEY } },
});

describe('deletes on the wire', () => {
  it('bare keys in an envelope: derived as deleteStyle keys, and they fit', () => {
    const { binding, check } = checkOf('products.delete', bareKeys);
    expect([binding.deleteStyle, binding.envelope]).toEqual(['keys', 'externalIds']);
    expect(() => check!(item('10004'))).not.toThrow();
  });

  it('a key the described items refuse stops the plan naming the key and the pointer', () => {
    const { check } = checkOf('products.delete', bareKeys);
    expect(() => check!(item('A-1'))).toThrow(
      expect.objectContaining({
        code: 'FERRY_CONTRACT_SHAPE',
        details: expect.objectContaining({
          shape: 'an array of bare keys in {"externalIds": [...]}',
          pointer: '/externalIds/0',
          key: 'A-1',
        }),
      }),
    );
  });

  it('by key in the path: derived as deleteStyle path, the key checked against the parameter', () => {
    const { binding, check } = checkOf('products.delete', {
      '/external/api/products/{sku}': {
        delete: { parameters: [{ name: 'sku', in: 'path', required: true, schema: KEY }] },
      },
    });
    expect([binding.deleteStyle, binding.maxItems, binding.body]).toEqual(['path', 1, 'none']);
    expect(() => check!(item('10004'))).not.toThrow();
    expect(() => check!(item('x'))).toThrow(/the path parameter \{sku\}/);
  });

  it('key objects that name the key otherwise: their one property becomes the keyField', () => {
    const { binding, check } = checkOf(
      'products.delete',
      deleteTaking({
        type: 'array',
        items: { type: 'object', required: ['sku'], properties: { sku: KEY } },
      }),
    );
    expect([binding.deleteStyle, binding.keyField]).toEqual(['body', 'sku']);
    expect(() => check!(item('10004', { sku: '10004' }))).not.toThrow();
  });

  it('a comma-separated query parameter (explode: false) is deleteStyle csv', () => {
    const { binding } = checkOf('products.delete', {
      '/external/api/products': {
        delete: {
          parameters: [
            { name: 'ids', in: 'query', explode: false, schema: { type: 'array', items: KEY } },
          ],
        },
      },
    });
    expect([binding.deleteStyle, binding.deleteQueryParam]).toEqual(['csv', 'ids']);
  });
});

describe('patches on the wire', () => {
  const patch = {
    '/external/api/products': {
      patch: {
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['externalId', 'name'],
                  properties: { externalId: KEY, name: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    },
  };

  it('changed fields the PATCH schema refuses stop the plan with the pointer in the body', () => {
    const { check } = checkOf('products.patch', patch);
    const changed = {
      ...item('10004', { externalId: '10004', vendor: 'V' }),
      kind: 'patch' as const,
    };
    expect(() => check!(changed)).toThrow(
      expect.objectContaining({
        code: 'FERRY_CONTRACT_SHAPE',
        details: expect.objectContaining({
          operationId: 'products.patch',
          shape: 'an array of changed fields',
          pointer: '/0/name',
        }),
      }),
    );
    const whole = { ...changed, payload: { externalId: '10004', name: 'Bike' } };
    expect(() => check!(whole)).not.toThrow();
  });
});
