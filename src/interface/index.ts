/**
 * The front door of src/interface: the platform's HTTP interface: catalog, bindings, client. The
 * layers above import what they use of it from here, never one of its modules
 * (.ci/check-imports.mjs); this file re-exports exactly those names.
 */
export {
  type ItemError,
  type ItemResult,
  itemResults,
  type PlatformWords,
  refusalWords,
} from './answer-words.js';
export { backoffDelay } from './backoff.js';
export {
  type Binding,
  type BindingOrigin,
  bindingOrigins,
  type BindingSetting,
  DEFAULT_MAX_BYTES,
  resolveBindings,
} from './bindings.js';
export {
  findOperation,
  type Operation,
  type OperationKind,
  OPERATIONS,
  operationsOfListing,
} from './catalog.js';
export type { CallRequest, CallResponse, InterfaceClient } from './client-types.js';
export { createInterfaceClient } from './client.js';
export { deleteKeysOf, deleteParts, deletePathParam, deleteShapeText } from './delete-shape.js';
export {
  AuthError,
  InterfaceError,
  PayloadTooLargeError,
  PermanentHttpError,
  RateLimitedError,
} from './errors.js';
export { checkAuth } from './openapi/check-auth.js';
export {
  type ContractChange,
  type ContractDiff,
  type ContractUsage,
  diffContract,
  type OperationUsage,
} from './openapi/contract-diff.js';
export { withDescribedBindings } from './openapi/contract-bindings.js';
export {
  checkDescribedRead,
  configFromDescription,
  configFromText,
  configWithContract,
  descriptionOf,
} from './openapi/configured-contract.js';
export { describedBindings, itemsArrayOf } from './openapi/described-bindings.js';
export {
  type DescribedOperation,
  describedOperations,
  type Schema,
} from './openapi/described-operations.js';
export { createSchemaCompiler, type ItemContract } from './openapi/item-contract.js';
export { isSchemaObject, objectShape, typesOf } from './openapi/json-schema.js';
export {
  describe,
  type Description,
  loadDescription,
  sha256Of,
} from './openapi/load-description.js';
export { type CatalogMatch, matchCatalog } from './openapi/match-catalog.js';
export { OpenApiError } from './openapi/openapi-error.js';
export { parseText } from './openapi/parse-text.js';
export { readSource, type SourceValidators } from './openapi/read-source.js';
export {
  hasRateLimitHeaders,
  type RateLimitHeaders,
  readRateLimitHeaders,
} from './rate-limit-headers.js';
export { type PagedRead, readPages } from './read-pages.js';
export { resolveOperation } from './resolve-operation.js';
