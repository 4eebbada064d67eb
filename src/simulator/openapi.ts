/**
 * The interface as Ferry assumes it, as OpenAPI 3.1: one operation per catalog row of the listing
 * (operationId = catalog id), bodies from the bindings, the resource fields of docs/PIPELINES.md
 * (Entities), the idempotency header, the 207 results and the error body.
 */
import { type Binding, operationsOfListing, type Operation } from '../interface/index.js';
import { type Listing } from '../config/index.js';
import { orderOfItems, readParamDocs } from './read-params.js';
import { SCHEMA_OF, componentSchemas } from './openapi-schemas.js';

export interface OpenApiOptions {
  listing: Listing;
  bindings: Map<string, Binding>;
  serverUrl: string;
  idempotencyHeader: string;
  /** The token URL, when the simulator serves OAuth2 client credentials. */
  oauthTokenUrl?: string;
}

type Doc = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const answer = (description: string, schema?: unknown) =>
  schema ? { description, content: json(schema) } : { description };
const error = (description: string) => answer(description, ref('Error'));

const COMMON_ERRORS = {
  '401': error('UNAUTHORIZED: missing or wrong bearer token'),
  '429': {
    ...error('RATE_LIMITED'),
    headers: {
      'Retry-After': {
        description: 'delta-seconds or an HTTP-date',
        schema: { type: 'string' },
      },
    },
  },
  '500': error('INTERNAL (also 502, 503 without Retry-After): retry later'),
};

const WRITE_ERRORS = {
  '400': error('VALIDATION_FAILED: the body has the wrong shape'),
  '409': error('REQUEST_IN_PROGRESS: the same idempotency key is still being processed'),
  '413': error('PAYLOAD_TOO_LARGE: too many items or bytes; split the batch'),
  '422': error('IDEMPOTENCY_KEY_REUSED, VALIDATION_FAILED or REJECTED'),
};

function requestBody(operation: Operation, binding: Binding): Doc | undefined {
  const schemaName = SCHEMA_OF[operation.resource];
  const array = (items: unknown) => ({ type: 'array', items, maxItems: binding.maxItems });
  switch (operation.kind) {
    case 'upsert':
      return { required: true, content: json(array(ref(schemaName!))) };
    case 'patch':
      return { required: true, content: json(array(ref(`${schemaName}Patch`))) };
    case 'delete':
      return binding.body === 'none'
        ? undefined
        : { required: false, content: json(array(ref('Key'))) };
    case 'entityWrite':
      return {
        required: true,
        content: json(
          ref(operation.id === 'products.prices.patch' ? 'ProductPrices' : 'DiscountCodeCampaign'),
        ),
      };
    case 'action': {
      const name = { customers: 'CustomerDetails', partners: 'PartnerSignup' }[operation.resource];
      return { required: true, content: json(ref(name ?? 'AgeGroupCode')) };
    }
    default:
      return undefined;
  }
}

function parameters(operation: Operation, binding: Binding, idempotencyHeader: string): Doc[] {
  const params: Doc[] = operation.pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (operation.kind === 'read' && operation.resource !== 'ageGroupCode') {
    for (const doc of readParamDocs(operation.resource)) params.push({ ...doc, in: 'query' });
  }
  if (operation.kind === 'delete') {
    params.push({
      name: binding.deleteQueryParam,
      in: 'query',
      description: 'Keys to delete, repeated; instead of the JSON body.',
      schema: { type: 'array', items: { type: 'string' } },
      style: 'form',
      explode: true,
    });
  }
  if (operation.method !== 'GET') {
    params.push({
      name: idempotencyHeader,
      in: 'header',
      description:
        'Same key and body: the stored answer is replayed (Idempotent-Replayed: true); same key, ' +
        'other body: 422; same key in flight: 409.',
      schema: { type: 'string' },
    });
  }
  return params;
}

function responses(operation: Operation): Doc {
  if (operation.kind === 'read') {
    const single = operation.resource === 'ageGroupCode';
    const page = {
      type: 'object',
      properties: {
        items: { type: 'array', items: ref(SCHEMA_OF[operation.resource] ?? 'AgeGroupCode') },
        page: { type: 'integer' },
        pageSize: { type: 'integer' },
        total: { type: 'integer' },
      },
      required: ['items', 'page', 'pageSize', 'total'],
    };
    return {
      '200': single
        ? answer('OK', ref('AgeGroupCode'))
        : answer(
            `OK. ${orderOfItems(operation.resource)} total counts the items that match.`,
            page,
          ),
      ...(single
        ? {}
        : { '400': error('VALIDATION_FAILED: a bad or unknown query parameter, named') }),
      ...COMMON_ERRORS,
    };
  }
  if (operation.kind === 'upsert' || operation.kind === 'patch' || operation.kind === 'delete') {
    return {
      '200': answer('Every item applied', ref('BatchResults')),
      '207': answer('Some items refused: see each item status', ref('BatchResults')),
      ...WRITE_ERRORS,
      ...COMMON_ERRORS,
    };
  }
  const ok = operation.method === 'POST' ? '201' : '200';
  return {
    [ok]: answer('Applied', { type: 'object' }),
    '404': error('NOT_FOUND: the addressed entity does not exist'),
    ...WRITE_ERRORS,
    ...COMMON_ERRORS,
  };
}

export function buildOpenApi(options: OpenApiOptions): Doc {
  const paths: Record<string, Record<string, Doc>> = {};
  for (const operation of operationsOfListing(options.listing)) {
    const binding = options.bindings.get(operation.id)!;
    const body = requestBody(operation, binding);
    (paths[binding.path] ??= {})[operation.method.toLowerCase()] = {
      operationId: operation.id,
      tags: [operation.group],
      parameters: parameters(operation, binding, options.idempotencyHeader),
      ...(body ? { requestBody: body } : {}),
      responses: responses(operation),
    };
  }
  const securitySchemes: Doc = { bearerAuth: { type: 'http', scheme: 'bearer' } };
  if (options.oauthTokenUrl) {
    securitySchemes.oauth2 = {
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: options.oauthTokenUrl, scopes: {} } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Commerce platform interface (as Ferry assumes it)',
      version: '1.0.0',
      description: `Listing ${options.listing}. Generated from Ferry's operation catalog and bindings.`,
    },
    servers: [{ url: options.serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: { schemas: componentSchemas(), securitySchemes },
  };
}
