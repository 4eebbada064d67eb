/**
 * What an undo skips, as the CLI and the console say it: grouped by resource and reason, most
 * first, a few keys each (a catalog's undo skips thousands of prices for one reason).
 */
import { describe, expect, it } from 'vitest';
import { skippedGroups, skippedGroupText } from '../../src/orchestrate/undo-run.js';

const created = (resource: string) =>
  `the run created it, and the pipeline gives ${resource} no delete operation`;

describe('skippedGroups', () => {
  it('says one line per resource and reason, the largest first, with a few keys', () => {
    const skipped = [
      { resource: 'categories', key: 'SKO', reason: created('categories') },
      ...Array.from({ length: 2947 }, (_, i) => ({
        resource: 'prices',
        key: String(100000 + i),
        reason: created('prices'),
      })),
      { resource: 'products', key: 'P9', reason: 'changed again by run catalog-2' },
    ];
    const lines = skippedGroups(skipped).map(skippedGroupText);
    expect(lines).toEqual([
      `2,947 prices: ${created('prices')} (e.g. 100000, 100001, 100002, 100003, 100004, …)`,
      `1 categories: ${created('categories')} (SKO)`,
      '1 products: changed again by run catalog-2 (P9)',
    ]);
  });
});
