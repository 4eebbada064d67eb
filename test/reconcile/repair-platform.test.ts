/**
 * `ferry reconcile --repair` of a pipeline on another platform than default (real Redis, two
 * simulators over TCP): the shop lost its catalog, the repair's run (with a worker in this process
 * that serves every platform, as `ferry run --wait`'s does) puts it back there and nowhere else.
 * It once stopped with exit 70: its worker was started with north's config alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, TEST_REDIS_URL } from '../helpers/redis.js';
import { useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { itemRow, writeItems } from '../serve/console-fixtures.js';
import { runFerry, simStats } from './reconcile-fixtures.js';

const h = useDeliveryHarness('repair-platform', { seed: 82 });
let north: RunningSimulator;
let configFile: string;
let items: string;

const ferry = (args: string[]) => runFerry(configFile, args);

beforeAll(async () => {
  north = await startSimulator({ port: 0, seed: 83 });
  const pipelines = join(h.dir, 'pipelines');
  mkdirSync(pipelines, { recursive: true });
  const catalog = readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8');
  writeFileSync(join(pipelines, 'catalog.yaml'), `${catalog}\nplatform: north\n`);
  configFile = join(h.dir, 'ferry.yaml');
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix: h.prefix },
      interface: { baseUrl: h.sim.url, auth: { type: 'bearer', token: 'dev-token' } },
      platforms: { north: { baseUrl: north.url, auth: { type: 'bearer', token: 'dev-token' } } },
      pipelines: { dir: pipelines },
      delivery: { concurrency: 2, reportsDir: join(h.dir, 'reports') },
      log: { level: 'warn', format: 'json' },
    }),
  );
  items = writeItems(
    join(h.dir, 'items.csv'),
    Array.from({ length: 12 }, (_, i) => itemRow(`N${100 + i}`, `${20 + i},00`)),
  );
  const run = await ferry(['run', 'catalog', '--file', items, '--wait', '--json']);
  expect(run.code, run.err).toBe(0);
  expect(north.state('products')).toHaveLength(12);
});

afterAll(async () => {
  await north.close();
  await deleteKeys(h.prefix);
});

describe('ferry reconcile --repair on a platform of its own', () => {
  it("puts the lost catalog back on that platform's shop only", async () => {
    north.reset(); // the shop lost its catalog
    const found = await ferry(['reconcile', 'catalog', '--file', items, '--json']);
    expect(found.code, found.err).toBe(1);
    expect(JSON.parse(found.out)).toMatchObject({ pipeline: 'catalog@north', missing: 12 });

    const repaired = await ferry(['reconcile', 'catalog', '--file', items, '--repair', '--json']);
    expect(repaired.code, repaired.err).toBe(1); // drift was found (and repaired)
    expect(JSON.parse(repaired.out).repair).toMatchObject({
      status: 'succeeded',
      operations: { 'products.put': { planned: 12, delivered: 12 } },
    });
    expect(north.state('products')).toHaveLength(12);
    expect((await simStats(h.sim)).requests).toBe(0); // default's shop heard nothing

    const after = await ferry(['reconcile', 'catalog', '--file', items, '--json']);
    expect(after.code, after.err).toBe(0);
  });
});
