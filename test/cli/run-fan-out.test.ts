/**
 * `ferry run` and `ferry plan` of a catalog that fans out to two shops (two simulators over TCP,
 * docs/PLATFORMS.md): `run --wait --json` starts a run per platform and prints both reports,
 * `--platform` keeps one, `plan` needs one named (each platform has its own state), and an unknown
 * platform the pipeline does not deliver to is bad usage naming the ones it does.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { configOnlyEnv, ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { itemRow, writeItems } from '../serve/console-fixtures.js';

const h = useDeliveryHarness('run-fan-out', { seed: 8 });
let south: RunningSimulator;
let configFile = '';
let items = '';

const ferry = (args: string[]) => ferryHere(args, { env: configOnlyEnv(configFile) });

beforeAll(async () => {
  south = await startSimulator({ port: 0, seed: 9 });
  const pipelines = join(h.dir, 'pipelines');
  mkdirSync(pipelines, { recursive: true });
  const catalog = readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8');
  writeFileSync(join(pipelines, 'catalog.yaml'), `${catalog}\nplatforms: [north, south]\n`);
  configFile = join(h.dir, 'ferry.yaml');
  const shop = (url: string) => ({ baseUrl: url, auth: { type: 'bearer', token: 'dev-token' } });
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix: h.prefix },
      platforms: { north: shop(h.sim.url), south: shop(south.url) },
      pipelines: { dir: pipelines },
      delivery: { concurrency: 2, reportsDir: join(h.dir, 'reports') },
      log: { level: 'silent', format: 'json' },
    }),
  );
  items = writeItems(join(h.dir, 'items.csv'), [itemRow('F1', '10,00'), itemRow('F2', '12,50')]);
});

afterAll(async () => {
  await south?.close();
});

describe('a fan-out from the command line', () => {
  it('runs one run per platform and prints both reports; an unchanged rerun sends nothing', async () => {
    const run = await ferry(['run', 'catalog', '--file', items, '--wait', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      pipeline: string;
      runs: { pipeline: string; status: string; platform: string }[];
    };
    expect(doc.pipeline).toBe('catalog');
    expect(doc.runs.map((r) => [r.pipeline, r.status])).toEqual([
      ['catalog@north', 'succeeded'],
      ['catalog@south', 'succeeded'],
    ]);
    expect(h.sim.state('products')).toHaveLength(2);
    expect(south.state('products')).toHaveLength(2);

    const requests = [h.sim.stats().requests, south.stats().requests];
    const again = await ferry(['run', 'catalog', '--file', items, '--wait', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect([h.sim.stats().requests, south.stats().requests]).toEqual(requests);
  });

  it('--platform runs and plans one platform; a plan of the fan-out names the ones to choose', async () => {
    const moved = writeItems(join(h.dir, 'moved.csv'), [
      itemRow('F1', '11,00'),
      itemRow('F2', '12,50'),
    ]);
    const plan = await ferry(['plan', 'catalog', '--file', moved, '--json']);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('catalog@north, catalog@south');
    expect(plan.stderr).toContain('--platform');
    const planSouth = await ferry(['plan', 'catalog', '--platform', 'south', '--file', moved]);
    expect(planSouth.code, planSouth.stderr).toBe(0);

    const before = h.sim.stats().requests;
    const run = await ferry(['run', 'catalog', '--platform', 'south', '--file', moved, '--wait']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('catalog@south');
    expect(run.stdout).not.toContain('catalog@north');
    expect(h.sim.stats().requests).toBe(before);

    const unknown = await ferry(['run', 'catalog', '--platform', 'east']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'catalog does not deliver to east (it delivers to north, south)',
    );
  });
});
