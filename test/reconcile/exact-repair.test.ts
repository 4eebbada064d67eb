/**
 * What the brief of the reconciliation asks exactly, on real Redis and the simulator over TCP: a
 * product renamed in the platform's back office (PATCH through the interface) is found with the
 * field and the values in the CSV, and `--repair` puts it back with exactly one request; a
 * pipeline whose resources the platform lists whole (stores) is rebuilt from the platform alone
 * and its next run sends nothing; a dry run of the rebuild writes nothing; a change feed is
 * refused with exit 2.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys } from '../helpers/redis.js';
import { useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { writeConfigFile } from '../queue/cli-process.js';
import { itemRow, writeItems } from '../serve/console-fixtures.js';
import { requestsSince, runFerry, simCall, simStats } from './reconcile-fixtures.js';

const h = useDeliveryHarness('reconcile-exact', { seed: 82 });
let configFile: string;
let items: string;
const ferry = (args: string[]) => runFerry(configFile, args);

beforeAll(async () => {
  configFile = writeConfigFile(h.dir, h.prefix, h.sim.url);
  items = writeItems(
    join(h.dir, 'items.csv'),
    Array.from({ length: 12 }, (_, i) => itemRow(`E${200 + i}`, `${20 + i},00`)),
  );
  const run = await ferry(['run', 'catalog', '--file', items, '--wait', '--json']);
  expect(run.code, run.err).toBe(0);
});

describe('ferry reconcile --repair', () => {
  it('finds a product renamed in the back office and puts it back with one request', async () => {
    await simCall(h.sim, 'PATCH', '/external/api/products', [
      { externalId: 'E203', name: 'Renamed in the shop' },
    ]);
    const found = await ferry(['reconcile', 'catalog', '--file', items, '--json']);
    expect(found.code, found.err).toBe(1);
    const doc = JSON.parse(found.out) as {
      checked: number;
      different: number;
      missing: number;
      unknown: number;
      samples: unknown[];
      csv: string;
    };
    expect(doc).toMatchObject({ checked: 12, different: 1, missing: 0, unknown: 0 });
    expect(doc.samples).toEqual([
      { resource: 'products', key: 'E203', kind: 'different', fields: ['name'] },
    ]);
    const csv = readFileSync(doc.csv, 'utf8').split('\r\n');
    expect(csv[0]).toBe('resource,key,kind,fields,platform,erp');
    expect(csv[1]).toBe(
      'products,E203,different,name,"{""name"":""Renamed in the shop""}","{""name"":""Item E203""}"',
    );

    const before = await simStats(h.sim);
    const repaired = await ferry(['reconcile', 'catalog', '--file', items, '--repair', '--json']);
    expect(repaired.code, repaired.err).toBe(1); // drift was found (and repaired)
    const repair = JSON.parse(repaired.out) as {
      repairRunId: string;
      repair: { status: string; plan: { operations: Record<string, { requests: number }> } };
    };
    expect(repair.repair.status).toBe('succeeded');
    expect(repair.repair.plan.operations).toEqual({ 'products.put': { items: 1, requests: 1 } });
    // The check's read of the listing, then one write: the product, nothing else.
    expect(requestsSince(before, await simStats(h.sim))).toEqual({
      'products.get': 1,
      'products.put': 1,
    });
    const products = (await simCall(h.sim, 'GET', '/__sim/state/products')) as {
      externalId: string;
      name: string;
    }[];
    expect(products.find((p) => p.externalId === 'E203')?.name).toBe('Item E203');
    expect((await ferry(['reconcile', 'catalog', '--file', items])).code).toBe(0);
  });

  it('refuses a change feed, which never holds the whole catalog (exit 2)', async () => {
    const feed = await ferry(['reconcile', 'item-changes']);
    expect(feed.code).toBe(2);
    expect(feed.err).toContain('mode: changes');
  });
});

describe('ferry state rebuild', () => {
  it('rebuilds stores from the platform alone; a dry run writes nothing', async () => {
    const first = await ferry(['run', 'stores', '--wait', '--json']);
    expect(JSON.parse(first.out).operations['stores.put'].delivered).toBeGreaterThan(0);
    await deleteKeys(`${h.prefix}:state:{stores}`);

    const dry = await ferry([
      'state',
      'rebuild',
      'stores',
      '--from-platform',
      '--dry-run',
      '--json',
    ]);
    expect(dry.code, dry.err).toBe(0);
    const counted = JSON.parse(dry.out) as { entities: number; dryRun: boolean };
    expect(counted.dryRun).toBe(true);
    const lost = await ferry(['plan', 'stores', '--json']);
    expect(JSON.parse(lost.out).operations['stores.put'].items).toBe(counted.entities);

    const rebuilt = await ferry(['state', 'rebuild', 'stores', '--from-platform', '--json']);
    expect(rebuilt.code, rebuilt.err).toBe(0);
    expect(JSON.parse(rebuilt.out)).toMatchObject({
      pipeline: 'stores',
      entities: counted.entities,
      notRebuilt: [],
    });
    const before = await simStats(h.sim);
    const rerun = await ferry(['run', 'stores', '--wait', '--json']);
    expect(JSON.parse(rerun.out).operations['stores.put']).toMatchObject({ planned: 0 });
    expect(requestsSince(before, await simStats(h.sim))).toEqual({});
  });

  it('needs --from-platform (exit 2)', async () => {
    expect((await ferry(['state', 'rebuild', 'stores'])).code).toBe(2);
  });
});
