/**
 * Plans against real Redis with a fresh key prefix per test: write a CSV, plan it, commit what a
 * delivery would confirm, plan again. useSnapshotHarness() registers the hooks of its test file.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { PipelineDefinition } from '../../src/pipeline/definition/definition-types.js';
import { planPipeline, type AllowDeletes } from '../../src/pipeline/plan-pipeline.js';
import { createStateStore, type StateStore } from '../../src/state/state-store.js';
import type { Plan } from '../../src/pipeline/types.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { definitionOf, tempDir, testConfig } from './helpers.js';

export type Row = [no: string, name: string, price: string, vendor?: string];

export const ROWS: Row[] = [
  ['1', 'One', '10,00'],
  ['2', 'Two', '20,00'],
  ['3', 'Three', '30,00'],
];

export const counts = (p: Plan): Record<string, number> =>
  Object.fromEntries(Object.entries(p.operations).map(([id, c]) => [id, c.items]));

/** A product's price in NOK from the Price column (a decimal with a comma), keyed by No. */
export const PRICE_ENTITY = {
  name: 'price',
  operations: { upsert: 'products.prices.patch' },
  key: 'No.',
  fields: {
    prices: {
      array: [
        {
          object: {
            amount: {
              column: 'Price',
              type: 'decimal',
              decimalSeparator: ',',
              scale: 2,
              required: true,
            },
            currency: { value: 'NOK' },
          },
        },
      ],
    },
  },
};

/** The product's fields, from the CSV's columns (csv() below). */
export const PRODUCT_FIELDS = {
  name: { column: 'Name', required: true },
  vendor: 'Vendor',
  handle: { template: 'p-{No.}' },
  active: { value: true },
  categoryExternalIds: { value: [] },
};

/** A small catalog: product (with deletes, optionally PATCH) and its price. */
export function catalog(
  options: { deletes?: boolean; maxShare?: number; minRows?: number; patch?: boolean } = {},
): PipelineDefinition {
  return definitionOf('cat', {
    source: { connector: 'csv' },
    mode: 'snapshot',
    deletes: {
      enabled: options.deletes ?? false,
      maxShare: options.maxShare ?? 0.1,
      minRows: options.minRows ?? 0,
    },
    entities: [
      {
        name: 'product',
        operations: {
          upsert: 'products.put',
          delete: 'products.delete',
          ...(options.patch ? { patch: 'products.patch' } : {}),
        },
        key: 'No.',
        fields: PRODUCT_FIELDS,
      },
      { ...PRICE_ENTITY, sendWithNew: 'product' },
    ],
  });
}

export interface SnapshotHarness {
  /** A `;`-separated CSV file with the columns No., Name, Price, Vendor. */
  csv(rows: Row[]): string;
  /** A file with exactly this text. */
  file(name: string, text: string): string;
  plan(
    definition: PipelineDefinition,
    file: string,
    version: number,
    allowDeletes?: AllowDeletes,
  ): Promise<Plan>;
  /** What delivery does for confirmed items. */
  commitAll(plan: Plan): Promise<void>;
  store(): StateStore;
  redis(): Redis;
  prefix(): string;
}

export function useSnapshotHarness(label: string): SnapshotHarness {
  const basePrefix = uniquePrefix(label);
  const dir = tempDir();
  let redis: Redis;
  let run = 0;
  let prefix = `${basePrefix}-0`;
  beforeAll(() => {
    redis = new Redis(TEST_REDIS_URL);
  });
  afterEach(() => {
    run += 1;
    prefix = `${basePrefix}-${run}`;
  });
  afterAll(async () => {
    redis.disconnect();
    dir.remove();
    await deleteKeys(basePrefix);
  });
  let files = 0;
  const harness: SnapshotHarness = {
    csv(rows) {
      const lines = [
        'No.;Name;Price;Vendor',
        ...rows.map(([n, nm, p, v]) => `${n};${nm};${p};${v ?? 'ACME'}`),
      ];
      files += 1;
      return dir.file(`in-${files}.csv`, `${lines.join('\n')}\n`);
    },
    file: (name, text) => dir.file(name, text),
    plan(definition, file, version, allowDeletes) {
      return planPipeline({
        definition,
        sourceOverride: { file },
        redis,
        prefix,
        config: testConfig,
        version,
        ...(allowDeletes === undefined ? {} : { allowDeletes }),
      });
    },
    async commitAll(p) {
      // An item's riding entries (a price in its product's item) are committed with it.
      const items = p.stages.flatMap((s) =>
        s.requests.flatMap((r) => r.items.flatMap((i) => [i, ...(i.also ?? [])])),
      );
      const result = await createStateStore(redis, prefix).commit(p.pipeline, items);
      expect(result.stale).toEqual([]);
    },
    store: () => createStateStore(redis, prefix),
    redis: () => redis,
    prefix: () => prefix,
  };
  return harness;
}
