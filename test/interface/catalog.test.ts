import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, operationsOfListing } from '../../src/interface/catalog.js';
import { resolveOperation } from '../../src/interface/resolve-operation.js';
import {
  OperationNotInListingError,
  UnknownOperationError,
} from '../../src/interface/operation-errors.js';
import { sharedPath } from '../helpers/shared.js';

interface SpecRow {
  group: string;
  method: string;
  path: string;
  listings: string[];
}

/** The endpoint table of shared/interface-spec.md, parsed from its markdown. */
function specRows(): SpecRow[] {
  const text = readFileSync(sharedPath('interface-spec.md'), 'utf8');
  const section = text.slice(text.indexOf('## 4. Endpoints'), text.indexOf('## 5.'));
  return section
    .split('\n')
    .filter((l) => /^\| \w+ \| (GET|PUT|PATCH|DELETE|POST) \|/.test(l))
    .map((l) => {
      const [group, method, path, listing] = l
        .split('|')
        .slice(1, 5)
        .map((c) => c.trim()) as [string, string, string, string];
      const listings = listing === 'A and B' ? ['A', 'B'] : listing === 'A only' ? ['A'] : ['B'];
      return { group, method, path, listings };
    });
}

describe('operation catalog', () => {
  it('equals the spec table row for row, listings included', () => {
    const rows = specRows();
    expect(rows).toHaveLength(31);
    expect(
      OPERATIONS.map((o) => ({
        group: o.group,
        method: o.method,
        path: o.path,
        listings: [...o.listings],
      })),
    ).toEqual(rows);
  });

  it('has unique ids in the form docs/INTERFACE.md uses and path parameters taken from the path', () => {
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(31);
    expect(resolveOperation('products.prices.patch', 'A').pathParams).toEqual(['productId']);
    expect(resolveOperation('discountCodes.campaign.put', 'B').pathParams).toEqual([
      'discountCodeExternalId',
    ]);
    expect(OPERATIONS.filter((o) => o.pathParams.length > 0)).toHaveLength(2);
  });

  it('splits the listings as the spec does', () => {
    expect(operationsOfListing('A')).toHaveLength(30);
    expect(operationsOfListing('B')).toHaveLength(27);
    expect(operationsOfListing('B').map((o) => o.id)).toContain('partner.signup.post');
    expect(operationsOfListing('A').map((o) => o.id)).not.toContain('partner.signup.post');
  });

  it('refuses an operation outside the listing, naming it and the listing', () => {
    expect(() => resolveOperation('stores.get', 'B')).toThrow(OperationNotInListingError);
    expect(() => resolveOperation('stores.get', 'B')).toThrow(/stores\.get.*listing B/);
    expect(() => resolveOperation('nope.get', 'A')).toThrow(UnknownOperationError);
  });
});
