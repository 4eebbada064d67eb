/**
 * `ferry reconcile` and `ferry state rebuild` against real Redis and the simulator over TCP: a
 * product edited in the platform's back office, one deleted there and one made there are found
 * (missing, different with the field, unknown) and --repair puts the ERP's truth back through a
 * run of the pipeline; lost state is rebuilt from the platform so the next run sends nothing; a
 * listing without products.get is named and exits 2; a repair that would delete past the
 * mass-delete guard stops before anything changes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys } from '../helpers/redis.js';
import { buildServer } from '../../src/serve/server.js';
import { quietLogger, testConfig, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { writeConfigFile } from '../queue/cli-process.js';
import { itemRow, VIEWER, writeItems } from '../serve/console-fixtures.js';
import { runFerry, simCall } from './reconcile-fixtures.js';

const h = useDeliveryHarness('reconcile', { seed: 81 });
let configFile: string;
let items: string;

const ferry = (args: string[], env: NodeJS.ProcessEnv = {}) => runFerry(configFile, args, env);
const sim = (method: string, path: string, body?: unknown) => simCall(h.sim, method, path, body);

const requests = async (): Promise<number> =>
  ((await sim('GET', '/__sim/stats')) as { requests: number }).requests;

beforeAll(async () => {
  configFile = writeConfigFile(h.dir, h.prefix, h.sim.url);
  items = writeItems(
    join(h.dir, 'items.csv'),
    Array.from({ length: 30 }, (_, i) => itemRow(`P${100 + i}`, `${10 + i},50`)),
  );
  const run = await ferry(['run', 'catalog', '--file', items, '--wait', '--json']);
  expect(run.code, run.err).toBe(0);
});

afterAll(async () => {
  await deleteKeys(h.prefix);
});

describe('ferry reconcile', () => {
  it('finds nothing when the platform holds what Ferry delivered', async () => {
    const clean = await ferry(['reconcile', 'catalog', '--file', items, '--json']);
    expect(clean.code, clean.err).toBe(0);
    expect(JSON.parse(clean.out)).toMatchObject({
      checked: 30,
      missing: 0,
      different: 0,
      unknown: 0,
    });
  });

  it('finds an edited, a deleted and an unknown product, and --repair puts them right', async () => {
    await sim('PATCH', '/external/api/products', [{ externalId: 'P105', name: 'Back office' }]);
    await sim('DELETE', '/external/api/products', [{ externalId: 'P106' }]);
    await sim('PUT', '/external/api/products', [{ externalId: 'SHOP1', name: 'Made in the shop' }]);

    const found = await ferry(['reconcile', 'catalog', '--file', items, '--json']);
    expect(found.code, found.err).toBe(1);
    const doc = JSON.parse(found.out) as {
      missing: number;
      different: number;
      unknown: number;
      samples: Array<{ key: string; kind: string; fields?: string[] }>;
      csv: string;
    };
    expect(doc).toMatchObject({ missing: 1, different: 1, unknown: 1 });
    expect(doc.samples).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'P106', kind: 'missing' }),
        expect.objectContaining({ key: 'P105', kind: 'different', fields: ['name'] }),
        expect.objectContaining({ key: 'SHOP1', kind: 'unknown' }),
      ]),
    );

    const dry = await ferry([
      'reconcile',
      'catalog',
      '--file',
      items,
      '--repair',
      '--dry-run',
      '--json',
    ]);
    expect(JSON.parse(dry.out).repair).toMatchObject({ dryRun: true });
    const before = await requests();
    const repaired = await ferry(['reconcile', 'catalog', '--file', items, '--repair', '--json']);
    expect(repaired.code, repaired.err).toBe(1);
    expect(JSON.parse(repaired.out).repairRunId).toMatch(/^catalog-/);
    // One products.get of the check, then the repair's requests: a put of the two products,
    // their prices, and the delete of the unknown one.
    expect((await requests()) - before).toBeLessThanOrEqual(6);
    const products = (await sim('GET', '/__sim/state/products')) as Array<{
      externalId: string;
      name: string;
    }>;
    expect(products.find((p) => p.externalId === 'P105')?.name).toBe('Item P105');
    expect(products.some((p) => p.externalId === 'P106')).toBe(true);
    expect(products.some((p) => p.externalId === 'SHOP1')).toBe(false);

    const after = await ferry(['reconcile', 'catalog', '--file', items, '--json']);
    expect(after.code).toBe(0);
  });

  it('shows the last reconciliation in /metrics and on the pipeline page', async () => {
    await sim('PATCH', '/external/api/products', [{ externalId: 'P107', name: 'Drifted' }]);
    expect((await ferry(['reconcile', 'catalog', '--file', items])).code).toBe(1);
    const base = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
    const config = {
      ...base,
      serve: { ...base.serve, tokens: [{ name: 'v', role: 'viewer' as const, token: VIEWER }] },
    };
    const app = await buildServer({ config, redis: h.redis, logger: quietLogger() });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const auth = { authorization: `Bearer ${VIEWER}` };
      const metrics = await (await fetch(`${url}/metrics`, { headers: auth })).text();
      expect(metrics).toContain(
        'ferry_drift_entities{pipeline="catalog",platform="default",kind="different"} 1',
      );
      expect(metrics).toContain(
        'ferry_drift_entities{pipeline="catalog",platform="default",kind="missing"} 0',
      );
      const page = await (await fetch(`${url}/pipelines/catalog`, { headers: auth })).text();
      expect(page).toContain('1 different');
    } finally {
      await app.close();
    }
    expect((await ferry(['reconcile', 'catalog', '--file', items, '--repair'])).code).toBe(1);
  });

  it('names a resource the listing cannot read and exits 2', async () => {
    const b = await ferry(['reconcile', 'catalog'], { FERRY_LISTING: 'B' });
    expect(b.code).toBe(2);
    expect(b.err).toContain('listing B has no products.get');
  });

  it('stops a repair that would delete past the mass-delete guard', async () => {
    // The shop gained 20 products unknown to Ferry: deleting them all is more than 10%.
    await sim(
      'PUT',
      '/external/api/products',
      Array.from({ length: 20 }, (_, i) => ({ externalId: `X${i}`, name: `Shop ${i}` })),
    );
    const before = await requests();
    const stopped = await ferry(['reconcile', 'catalog', '--file', items, '--repair', '--json']);
    expect(stopped.code).toBe(1);
    expect(JSON.parse(stopped.out).repair.error.code).toBe('FERRY_MASS_DELETE_GUARD');
    expect((await requests()) - before).toBe(1); // the check's products.get, nothing sent
    await sim(
      'DELETE',
      '/external/api/products',
      Array.from({ length: 20 }, (_, i) => ({ externalId: `X${i}` })),
    );
  });
});

describe('ferry state rebuild', () => {
  it('rebuilds lost state from the platform so the next run sends nothing', async () => {
    await deleteKeys(`${h.prefix}:state`);
    const lost = await ferry(['plan', 'catalog', '--file', items, '--json']);
    expect(Object.keys(JSON.parse(lost.out).operations).length).toBeGreaterThan(0);

    const rebuilt = await ferry([
      'state',
      'rebuild',
      'catalog',
      '--from-platform',
      '--delivered-file',
      items,
      '--json',
    ]);
    expect(rebuilt.code, rebuilt.err).toBe(0);
    expect(JSON.parse(rebuilt.out)).toMatchObject({ pipeline: 'catalog', entities: 61 });

    const before = await requests();
    const rerun = await ferry(['run', 'catalog', '--file', items, '--wait', '--json']);
    expect(rerun.code, rerun.err).toBe(0);
    expect((await requests()) - before).toBe(0);
  });
});
