/**
 * `ferry demo --once` (the README's first command): the four sample pipelines end to end, what
 * landed in the simulator, nothing left in Redis; with no Redis it starts its own, and with no
 * redis-server either it says how to get one (exit 2).
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { redisWhere } from '../../src/redis/index.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { freePort } from '../helpers/redis-server.js';
import { sharedPath } from '../helpers/shared.js';
import { runFerry, runFerryHere, spawnFerry, writeConfigFile } from '../queue/cli-process.js';
import { tempDir, expectNothingOpen } from '../queue/delivery-fixtures.js';

/** What the four sample files leave on the platform, from shared/fixtures/erp/expected.json. */
const expected = JSON.parse(
  readFileSync(sharedPath('fixtures/erp/expected.json'), 'utf8'),
) as Record<string, { operations: Record<string, number> }>;
const op = (file: string, id: string): number => expected[file]?.operations[id] ?? 0;
const landed = {
  categories: op('items', 'categories.put'),
  products: op('items', 'products.put') - op('item-changes', 'products.delete'),
  stores: op('stores', 'stores.put'),
  users: op('users', 'users.put'),
};

const prefix = uniquePrefix('demo');
const dir = tempDir('demo');
let configFile: string;

beforeAll(() => {
  configFile = writeConfigFile(dir.path, prefix, 'http://127.0.0.1:9');
});

afterAll(async () => {
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

async function demoKeys(): Promise<string[]> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    return await redis.keys(`${prefix}-demo-*`);
  } finally {
    redis.disconnect();
  }
}

describe('ferry demo --once', () => {
  it('runs the sample pipelines and shows what landed', async () => {
    const result = await runFerryHere(['demo', '--once'], configFile);
    expect(result.code, result.stderr).toBe(0);
    for (const pipeline of ['catalog', 'stores', 'users', 'item-changes']) {
      expect(result.stdout).toContain(`$ ferry run ${pipeline}`);
    }
    expect(result.stdout).toContain('rejected examples/items.csv:');
    expect(result.stdout).not.toMatch(/rejected \//);
    expect(result.stdout).toContain(
      `What landed in the simulator: ${landed.categories} categories, ${landed.products} products`,
    );
    expect(result.stdout).toContain(`${landed.stores} stores, ${landed.users} users`);
    expect(result.stdout).toContain('0 applied twice');
    // What it ran on, by address; the rejections said to be on purpose; where to go next.
    expect(result.stdout).toContain(`Redis at ${redisWhere(TEST_REDIS_URL)}, keys under ${prefix}`);
    expect(result.stdout).toContain('The sample export in examples/ holds bad rows on purpose');
    expect(result.stdout).toMatch(/the \d+ rejected rows are the sample's bad rows/);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toContain('docs/INTERFACE.md');
    expect(await demoKeys()).toEqual([]);
  });

  it('without --once keeps the simulator and the console serving until Ctrl-C', async () => {
    const demo = spawnFerry(['demo', '--console-port', '0'], configFile);
    onTestFinished(() => {
      if (demo.child.exitCode === null) demo.child.kill('SIGKILL');
    });
    const deadline = Date.now() + 90_000;
    while (!demo.stdout().includes('Ctrl-C stops the demo') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /The simulator keeps serving at (\S+):/.exec(demo.stdout())?.[1];
    expect(url).toBeTruthy();
    const products = (await (await fetch(`${url}/__sim/state/products`)).json()) as unknown[];
    expect(products).toHaveLength(landed.products);
    const [, consoleUrl, viewer] =
      /The console is at (\S+) : log in with the viewer token (\S+)/.exec(demo.stdout()) ?? [];
    const runs = await fetch(`${consoleUrl}api/runs`, {
      headers: { authorization: `Bearer ${viewer}` },
    });
    expect(runs.status).toBe(200);
    expect(((await runs.json()) as { runs: unknown[] }).runs).toHaveLength(4);
    expect((await fetch(`${consoleUrl}api/runs`)).status).toBe(401);
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(await demoKeys()).toEqual([]);
  });

  it('starts a private redis-server when REDIS_URL has none', async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const file = writeConfigFile(
      dir.path,
      prefix,
      'http://127.0.0.1:9',
      {},
      nowhere,
      'no-redis.yaml',
    );
    const result = await runFerryHere(['demo', '--once'], file);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`a private redis-server at 127.0.0.1:`);
    expect(result.stdout).toContain(`(none answered at ${redisWhere(nowhere)})`);
    expect(result.stdout).toContain(
      `What landed in the simulator: ${landed.categories} categories`,
    );
  });

  it('says how to get a Redis when there is none and no redis-server to start', async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const file = writeConfigFile(
      dir.path,
      prefix,
      'http://127.0.0.1:9',
      {},
      nowhere,
      'no-redis.yaml',
    );
    // A PATH without redis-server (node itself is started by its full path): a child process, as
    // the redis-server is looked up on the process's own PATH.
    const result = await runFerry(['demo', '--once'], file, { PATH: dir.path });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('apt-get install redis-server');
    expect(result.stderr).toContain('REDIS_URL');
  });
});
