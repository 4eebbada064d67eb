/**
 * The operation catalog: the 31 operations of shared/interface-spec.md, with the ids
 * docs/INTERFACE.md uses. This table is the single source; client methods, simulator routes, the
 * OpenAPI description and the CLI listing are all derived from it.
 */
import type { Listing } from '../config/index.js';

export type HttpMethod = 'GET' | 'PUT' | 'PATCH' | 'DELETE' | 'POST';

/** What an operation does to its resource; decides default bindings and simulator behaviour. */
export type OperationKind =
  | 'read' // GET, paged listing or single document
  | 'upsert' // PUT collection: array of full items
  | 'patch' // PATCH collection: array of partial items
  | 'delete' // DELETE collection: array of {externalId}
  | 'entityWrite' // write addressed by a path parameter, one entity per request
  | 'action'; // POST with an object body

export interface Operation {
  readonly id: string;
  readonly group: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly pathParams: readonly string[];
  readonly listings: readonly Listing[];
  readonly kind: OperationKind;
  /** The resource the operation reads or writes (simulator state name). */
  readonly resource: string;
}

const AB: readonly Listing[] = ['A', 'B'];
const A: readonly Listing[] = ['A'];
const B: readonly Listing[] = ['B'];

function op(
  id: string,
  group: string,
  method: HttpMethod,
  path: string,
  listings: readonly Listing[],
  kind: OperationKind,
  resource: string,
): Operation {
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return Object.freeze({ id, group, method, path, pathParams, listings, kind, resource });
}

const AGE_GROUPS = '/external/api/age-groups';
const CAMPAIGNS = '/external/api/campaigns';
const CATEGORIES = '/external/api/categories';
const PRODUCTS = '/external/api/products';
const STORES = '/external/api/stores';
const USERS = '/external/api/users';

export const OPERATIONS: readonly Operation[] = Object.freeze([
  op('ageGroups.put', 'AgeGroup', 'PUT', AGE_GROUPS, AB, 'upsert', 'ageGroups'),
  op('ageGroups.delete', 'AgeGroup', 'DELETE', AGE_GROUPS, AB, 'delete', 'ageGroups'),
  op('ageGroups.patch', 'AgeGroup', 'PATCH', AGE_GROUPS, AB, 'patch', 'ageGroups'),
  op(
    'ageGroupCode.get',
    'AgeGroupCode',
    'GET',
    '/external/api/age-group-code',
    AB,
    'read',
    'ageGroupCode',
  ),
  op(
    'ageGroupCode.put',
    'AgeGroupCode',
    'PUT',
    '/external/api/age-group-code',
    AB,
    'action',
    'ageGroupCode',
  ),
  op('campaigns.put', 'Campaigns', 'PUT', CAMPAIGNS, AB, 'upsert', 'campaigns'),
  op('campaigns.delete', 'Campaigns', 'DELETE', CAMPAIGNS, AB, 'delete', 'campaigns'),
  op('campaigns.patch', 'Campaigns', 'PATCH', CAMPAIGNS, AB, 'patch', 'campaigns'),
  op('categories.put', 'Categories', 'PUT', CATEGORIES, AB, 'upsert', 'categories'),
  op('categories.delete', 'Categories', 'DELETE', CATEGORIES, AB, 'delete', 'categories'),
  op('categories.patch', 'Categories', 'PATCH', CATEGORIES, AB, 'patch', 'categories'),
  op(
    'customers.details.post',
    'CustomersIntegration',
    'POST',
    '/external/api/customers/details',
    A,
    'action',
    'customers',
  ),
  op(
    'discountCodes.put',
    'DiscountCode',
    'PUT',
    '/external/api/discount-codes',
    AB,
    'upsert',
    'discountCodes',
  ),
  op(
    'discountCodes.campaign.put',
    'DiscountCode',
    'PUT',
    '/external/api/discount-codes/{discountCodeExternalId}/campaign',
    AB,
    'entityWrite',
    'discountCodes',
  ),
  op('microshops.get', 'Microshop', 'GET', '/external/api/microshops', AB, 'read', 'microshops'),
  op('orders.get', 'Orders', 'GET', '/external/api/orders', AB, 'read', 'orders'),
  op('partner.signup.post', 'Partner', 'POST', '/api/partner/signup', B, 'action', 'partners'),
  op('products.get', 'Products', 'GET', PRODUCTS, A, 'read', 'products'),
  op('products.put', 'Products', 'PUT', PRODUCTS, AB, 'upsert', 'products'),
  op('products.delete', 'Products', 'DELETE', PRODUCTS, AB, 'delete', 'products'),
  op('products.patch', 'Products', 'PATCH', PRODUCTS, AB, 'patch', 'products'),
  op(
    'products.prices.patch',
    'Products',
    'PATCH',
    `${PRODUCTS}/{productId}/prices`,
    AB,
    'entityWrite',
    'prices',
  ),
  op(
    'reports.zReport.get',
    'Reports',
    'GET',
    '/external/api/reports/z-report',
    AB,
    'read',
    'zReports',
  ),
  op(
    'statistics.revenue.get',
    'Statistics',
    'GET',
    '/external/api/statistics/revenue',
    A,
    'read',
    'revenue',
  ),
  op('stores.get', 'Stores', 'GET', STORES, A, 'read', 'stores'),
  op('stores.put', 'Stores', 'PUT', STORES, AB, 'upsert', 'stores'),
  op('stores.delete', 'Stores', 'DELETE', STORES, AB, 'delete', 'stores'),
  op('stores.patch', 'Stores', 'PATCH', STORES, AB, 'patch', 'stores'),
  op('users.put', 'Users', 'PUT', USERS, AB, 'upsert', 'users'),
  op('users.delete', 'Users', 'DELETE', USERS, AB, 'delete', 'users'),
  op('users.patch', 'Users', 'PATCH', USERS, AB, 'patch', 'users'),
]);

const BY_ID = new Map(OPERATIONS.map((o) => [o.id, o]));

export function findOperation(id: string): Operation | undefined {
  return BY_ID.get(id);
}

export function operationsOfListing(listing: Listing): Operation[] {
  return OPERATIONS.filter((o) => o.listings.includes(listing));
}

export function isWrite(operation: Operation): boolean {
  return operation.method !== 'GET';
}
