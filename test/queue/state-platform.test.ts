/**
 * State belongs to its platform: a catalog delivered to simulator A, then FERRY_BASE_URL pointed
 * at simulator B with the same prefix. The run used to plan nothing for what had not changed, and
 * B got nothing; now it stops before planning (exit 2, FERRY_STATE_OTHER_PLATFORM; an import 409)
 * naming both and the ways out. --resend-all sends everything to B; `ferry state rebind` keeps the state for
 * the same platform at a new address, audited.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { deliveryKeys } from '../../src/runs/index.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { normalisePlatformUrl } from '../../src/state/index.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { consoleTestConfig, listenConsole, OPERATOR } from '../serve/console-fixtures.js';
import { runFerryHere, writeConfigFile } from './cli-process.js';
import { expectNothingOpen, tempDir } from './delivery-fixtures.js';

const ITEMS = 'examples/items.csv';
const dir = tempDir('state-platform');
const prefix = uniquePrefix('platform');
let simA: RunningSimulator;
let simB: RunningSimulator;
let configFile: string;

beforeAll(async () => {
  simA = await startSimulator({ port: 0, seed: 3 });
  simB = await startSimulator({ port: 0, seed: 4 });
  configFile = writeConfigFile(dir.path, prefix, simA.url);
});

afterAll(async () => {
  await simA?.close();
  await simB?.close();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

interface Report {
  status: string;
  rejected: number;
  operations: Record<string, { planned: number; delivered: number }>;
}

/** `ferry run catalog --wait --json` against `baseUrl`; its report, after checking its exit code. */
async function syncTo(baseUrl: string, extra: string[] = []): Promise<Report> {
  const run = await runFerryHere(
    ['run', 'catalog', '--file', ITEMS, '--wait', '--json', ...extra],
    configFile,
    { FERRY_BASE_URL: baseUrl },
  );
  const report = JSON.parse(run.stdout) as Report;
  expect(run.code, run.stderr).toBe(report.rejected > 0 ? 1 : 0);
  return report;
}

async function statePlatformOf(pipeline: string): Promise<string | null> {
  const status = await runFerryHere(['status', '--json'], configFile);
  expect(status.code).toBe(0);
  const { pipelines } = JSON.parse(status.stdout) as {
    pipelines: { pipeline: string; platform: string | null }[];
  };
  return pipelines.find((p) => p.pipeline === pipeline)?.platform ?? null;
}

describe('state bound to its platform', () => {
  it('normalises a base URL to scheme, host, port and path', () => {
    expect(normalisePlatformUrl('HTTP://Shop.Example:80/api/v2/')).toBe(
      'http://shop.example/api/v2',
    );
    expect(normalisePlatformUrl('https://user:pw@shop.example:8443/?q=1#x')).toBe(
      'https://shop.example:8443',
    );
  });

  it('stops a run against another platform; --resend-all sends B everything; rebind keeps the state', async () => {
    const a = normalisePlatformUrl(simA.url);
    const b = normalisePlatformUrl(simB.url);
    const first = await syncTo(simA.url);
    const products = simA.state('products').length;
    expect(products).toBeGreaterThan(0);
    expect(first.operations['products.put']?.delivered).toBe(products);
    expect(await statePlatformOf('catalog')).toBe(a);

    // B: the run and the plan stop before planning, naming both platforms and the ways out.
    const stopped = await runFerryHere(
      ['run', 'catalog', '--file', ITEMS, '--wait', '--json'],
      configFile,
      { FERRY_BASE_URL: simB.url },
    );
    expect(stopped.code).toBe(2);
    expect(JSON.parse(stopped.stdout)).toMatchObject({
      error: { code: 'FERRY_STATE_OTHER_PLATFORM', statePlatform: a, platform: b },
    });
    for (const text of [a, b, 'ferry state rebind catalog', '--from-platform', '--resend-all']) {
      expect(stopped.stderr).toContain(text);
    }
    expect(stopped.stderr).toContain('FERRY_PREFIX');
    const plan = await runFerryHere(['plan', 'catalog', '--file', ITEMS], configFile, {
      FERRY_BASE_URL: simB.url,
    });
    expect(plan.code).toBe(2);
    // An import through the console (configured for B): 409 with the code, nothing started.
    const redis = new Redis(TEST_REDIS_URL);
    const { app, url } = await listenConsole(
      consoleTestConfig({ prefix, dir: dir.path, sim: simB }),
      redis,
    );
    try {
      const res = await request(`${url}/api/pipelines/catalog/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'text/csv' },
        body: readFileSync(join(PROJECT_ROOT, ITEMS)),
      });
      expect(res.statusCode).toBe(409);
      const answer = (await res.body.json()) as { error: { code: string; message: string } };
      expect(answer.error.code).toBe('FERRY_STATE_OTHER_PLATFORM');
      expect(answer.error.message).toContain(`belongs to the platform at ${a}`);
      expect(answer.error.message).toContain(`configured now is ${b}`);
    } finally {
      await app.close();
      redis.disconnect();
    }
    expect(simB.stats().requests).toBe(0);

    // --resend-all: the state starts over on B and everything goes there.
    const resent = await syncTo(simB.url, ['--resend-all']);
    expect(resent.operations['products.put']?.delivered).toBe(products);
    expect(simB.state('products')).toHaveLength(products);
    expect(await statePlatformOf('catalog')).toBe(b);

    // Back to A's address: stopped again, until a rebind says it is the same platform.
    const dry = await runFerryHere(
      ['state', 'rebind', 'catalog', '--dry-run', '--json'],
      configFile,
    );
    expect([dry.code, JSON.parse(dry.stdout)]).toEqual([
      0,
      { pipeline: 'catalog', from: b, to: a, changed: true, dryRun: true },
    ]);
    expect(await statePlatformOf('catalog')).toBe(b);
    const rebound = await runFerryHere(['state', 'rebind', 'catalog', '--json'], configFile);
    expect(JSON.parse(rebound.stdout)).toMatchObject({ from: b, to: a, changed: true });
    expect(await statePlatformOf('catalog')).toBe(a);
    const requestsA = simA.stats().requests;
    const after = await syncTo(simA.url);
    expect(after.operations['products.put']?.planned ?? 0).toBe(0);
    expect(simA.stats().requests).toBe(requestsA);

    const audits = new Redis(TEST_REDIS_URL);
    try {
      const audit = (await audits.lrange(deliveryKeys(prefix).audit, 0, -1)).map(
        (l) => JSON.parse(l) as { actor: string; action: string; target: string },
      );
      expect(audit).toContainEqual({
        at: expect.any(String) as string,
        actor: expect.stringMatching(/^cli:/) as string,
        action: 'state.rebind',
        target: 'catalog',
        platform: 'default',
      });
    } finally {
      audits.disconnect();
    }
  }, 180_000);
});
