import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { createStateStore } from '../../src/state/state-store.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { sharedPath } from '../helpers/shared.js';
import { tempDir } from './helpers.js';

const prefix = uniquePrefix('plancli');
const dir = tempDir();
let redis: Redis;
beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});
afterAll(async () => {
  redis.disconnect();
  dir.remove();
  await deleteKeys(prefix);
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `ferry` in this process (what it prints and returns is the point, not the process). */
function ferry(args: string[], env: Record<string, string> = {}): Promise<Result> {
  return ferryHere(args, {
    env: {
      ...process.env,
      REDIS_URL: TEST_REDIS_URL,
      FERRY_PREFIX: prefix,
      FERRY_LOG_LEVEL: 'error',
      ...env,
    },
  });
}

const expected = JSON.parse(readFileSync(sharedPath('fixtures/erp/expected.json'), 'utf8')) as {
  items: { rows: number; errors: number[]; operations: Record<string, number> };
};

describe('ferry plan', () => {
  it('prints one JSON document of the contract for examples/items.csv, exit 1 for its rejected records', async () => {
    const r = await ferry(['plan', 'catalog', '--file', 'examples/items.csv', '--json']);
    expect(r.code).toBe(1);
    const plan = JSON.parse(r.stdout) as {
      pipeline: string;
      rows: number;
      operations: Record<string, { items: number; requests: number }>;
      deletes: number;
      errors: { line: number; message: string; file: string; field: string }[];
      items?: unknown;
    };
    expect(plan.pipeline).toBe('catalog');
    expect(plan.rows).toBe(expected.items.rows);
    expect(plan.deletes).toBe(0);
    expect(plan.errors.map((e) => e.line)).toEqual(expected.items.errors);
    expect(plan.errors[0]).toMatchObject({
      field: 'Description',
      file: expect.stringContaining('items.csv'),
    });
    expect(
      Object.fromEntries(Object.entries(plan.operations).map(([id, c]) => [id, c.items])),
    ).toEqual(expected.items.operations);
    expect(plan.operations['products.prices.patch']?.requests).toBe(
      expected.items.operations['products.prices.patch'],
    );
    expect(plan).not.toHaveProperty('items');
    // A plan reads state and never writes it.
    expect(await redis.keys(`${prefix}:*`)).toEqual([]);
  });

  it('stops with one error naming the file, its columns and the closest name when the key column is missing', async () => {
    const items = readFileSync(resolve(PROJECT_ROOT, 'examples/items.csv'), 'latin1');
    const rows = Array.from(
      { length: 2_000 },
      (_, i) => `${20_000 + i};Thing ${i};;V;SKI;Ski;;1;1,00;EUR;No;;;`,
    );
    const file = dir.file(
      'no-key.csv',
      Buffer.from(`${items.split('\n')[0]!.replace('No.', 'Nr.')}\n${rows.join('\n')}\n`, 'latin1'),
    );
    const r = await ferry(['plan', 'catalog', '--file', file, '--json']);
    expect(r.code).toBe(1);
    const { error } = JSON.parse(r.stdout) as {
      error: { code: string; message: string; columns: string[]; closest: string };
    };
    expect(error.code).toBe('FERRY_INPUT_INVALID');
    expect(error.message).toContain(`${file}: column No. missing (it is the key of product)`);
    expect(error.message).toContain('the columns found are Nr., Description, Description 2,');
    expect(error.message).toContain('The closest name is "Nr."');
    expect(error.closest).toBe('Nr.');
    expect(r.stdout).not.toContain('required (it is the key), but empty');
  });

  it('lists every item with --show-items', async () => {
    const r = await ferry([
      'plan',
      'users',
      '--file',
      'examples/users.csv',
      '--json',
      '--show-items',
    ]);
    expect(r.code).toBe(1);
    const plan = JSON.parse(r.stdout) as {
      items: { operationId: string; pathParams: object; payload: { externalId: string } }[];
    };
    expect(plan.items).toHaveLength(23);
    expect(plan.items[0]).toMatchObject({
      operationId: 'users.put',
      pathParams: {},
      payload: { externalId: 'E0001', storeExternalIds: ['S007'] },
    });
  });

  it('prints a readable summary without --json, exit 0 when every record is accepted', async () => {
    const r = await ferry(['plan', 'item-changes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'Plan of item-changes from examples/item-changes.csv: 14 rows, 0 rejected records, 3 deletes',
    );
    expect(r.stdout).toMatch(/stage 1 +products\.prices\.patch +11 items in 11 requests/);
  });

  it('stops on the mass-delete guard with exit 1 unless --allow-deletes allows it', async () => {
    // Ten stores in state that the export does not have.
    const items = Array.from({ length: 10 }, (_, i) => ({
      resource: 'stores',
      key: `OLD${i}`,
      kind: 'upsert' as const,
      payload: {},
      hash: 'old',
      version: 1,
      baseVersion: 0,
    }));
    await createStateStore(redis, prefix).commit('stores-guard', items);
    // A copy of the stores pipeline with deletes on, in a pipelines folder of its own.
    const pipelines = tempDir();
    try {
      pipelines.file(
        'stores-guard.yaml',
        readFileSync(resolve(PROJECT_ROOT, 'config/pipelines/stores.yaml'), 'utf8')
          .replace('upsert: stores.put', 'upsert: stores.put\n      delete: stores.delete')
          .replace('mode: snapshot', 'mode: snapshot\ndeletes: { enabled: true }'),
      );
      const config = pipelines.file('ferry.yaml', `pipelines:\n  dir: ${pipelines.path}\n`);
      const env = { FERRY_CONFIG: config };
      const stopped = await ferry(
        ['plan', 'stores-guard', '--file', resolve(PROJECT_ROOT, 'examples/stores.csv'), '--json'],
        env,
      );
      expect(stopped.code).toBe(1);
      const body = JSON.parse(stopped.stdout) as {
        error: { code: string; deletes: number; inState: number };
      };
      expect(body.error).toMatchObject({
        code: 'FERRY_MASS_DELETE_GUARD',
        deletes: 10,
        inState: 10,
      });
      expect(stopped.stderr).toContain('--allow-deletes 10');
      const allowed = await ferry(
        [
          'plan',
          'stores-guard',
          '--file',
          resolve(PROJECT_ROOT, 'examples/stores.csv'),
          '--json',
          '--allow-deletes',
          '10',
        ],
        env,
      );
      expect(JSON.parse(allowed.stdout)).toMatchObject({
        deletes: 10,
        operations: { 'stores.delete': { items: 10, requests: 1 } },
      });
    } finally {
      pipelines.remove();
    }
  });

  it('exits 2 for bad usage and unknown pipelines, with a message that says what to do', async () => {
    const bad = await ferry(['plan', 'catalog', '--allow-deletes', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--allow-deletes takes a number');
    const unknown = await ferry(['plan', 'nope', '--json']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout).error.code).toBe('FERRY_CONFIG_INVALID');
    expect(unknown.stderr).toMatch(/no such pipeline.*catalog/);
    const missing = await ferry(['plan', 'catalog', '--file', dir.path + '/absent.csv']);
    expect(missing.code).toBe(2);
  });
});
