/**
 * One night replayed as an operator lives it, in Chromium (`npm run docs:night`; a Redis at
 * REDIS_URL and Chromium, see test/helpers/browser.ts): the catalog delivered; a poisoned export
 * (every price x100) uploaded by alice and stopped by the value guards; alice's allow refused
 * (four eyes), bob's sent; a wrong credential blocks a run, resumed once fixed; the refused items
 * replayed; more refusals purged; a run cancelled, then undone. After each step the overview, the
 * run and the dead letters: docs/console/night/<n>-<step>-{overview,run,dead-letters}.png.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { configSchema } from '../../src/config/schema.js';
import { createLogger } from '../../src/logging/logger.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { recentRuns } from '../../src/runs/run-index.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { deleteKeysUnder } from '../../src/redis/delete-prefix.js';
import { startSimulator } from '../../src/simulator/start-simulator.js';
import { openStage } from './console-stage.js';

const OUT = resolve(PROJECT_ROOT, 'docs/console/night');
const WORK = join(OUT, '.work');
const ALICE = 'night-alice-operator-token';
const BOB = 'night-bob-operator-token';
const prefix = `ferry-night-${process.pid}`;
const logger = createLogger({ level: 'warn', format: 'json' });
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const redis = new Redis(redisUrl);
const sim = await startSimulator({
  port: 0,
  seed: 2,
  faults: { rejectKeys: ['10003', '10007'], latency: [20, 60] },
});
mkdirSync(WORK, { recursive: true });
const config = configSchema.parse({
  redis: { url: redisUrl, prefix },
  interface: { baseUrl: sim.url, auth: { type: 'bearer', token: 'dev-token' } },
  delivery: { reportsDir: join(WORK, 'reports'), concurrency: 4 },
  serve: {
    fourEyes: true,
    tokens: [
      { name: 'alice', role: 'operator', token: ALICE },
      { name: 'bob', role: 'operator', token: BOB },
    ],
  },
  log: { level: 'warn' },
});
const keys = deliveryKeys(prefix);
const stage = await openStage(config, redis, logger);
const { url, browser } = stage;

async function api(path: string, token: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** Starts a catalog run of `file` (as the CLI would); its id. */
async function start(file: string): Promise<string> {
  const name = basename(file);
  return (
    await startRun({
      config,
      redis,
      logger,
      pipeline: 'catalog',
      source: { file, name },
      sourceName: name,
    })
  ).runId;
}

async function until(runId: string, status: string): Promise<void> {
  while ((await redis.hget(keys.run(runId), 'status')) !== status) {
    await new Promise((r) => setTimeout(r, 200));
  }
}

try {
  const items = readFileSync(resolve(PROJECT_ROOT, 'examples/items.csv'), 'latin1');
  const night = join(WORK, 'items.csv');
  writeFileSync(night, items, 'latin1');
  await followRun(redis, keys, await start(night), () => undefined);

  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${url}/login`);
  await page.fill('#token', ALICE);
  await Promise.all([page.waitForURL(`${url}/`), page.click('button[type=submit]')]);
  const shot = async (name: string, path: string): Promise<void> => {
    await page.goto(`${url}${path}`);
    await page.waitForTimeout(700);
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
    process.stdout.write(`docs/console/night/${name}.png\n`);
  };
  const step = async (name: string, runId: string): Promise<void> => {
    await shot(`${name}-overview`, '/');
    await shot(`${name}-run`, `/runs/${runId}`);
    await shot(`${name}-dead-letters`, '/dead-letters?pipeline=catalog');
  };

  // 1. alice uploads tonight's export from the pipeline page: every price x100, stopped.
  /** The poisoned export as bob allowed it, every product's name with `suffix`. */
  const renamed = (suffix: string): string =>
    poisonedText
      .split('\r\n')
      .map((line, i) =>
        i === 0 || !line ? line : line.replace(/^([^;]*);([^;]*)/, `$1;$2${suffix}`),
      )
      .join('\r\n');
  const poisoned = join(WORK, 'poisoned.csv');
  const poisonedText = items.replace(
    /;(\d+),(\d\d);/g,
    (_m, units: string, cents: string) => `;${units}00,${cents};`,
  );
  writeFileSync(poisoned, poisonedText, 'latin1');
  await page.goto(`${url}/pipelines/catalog`);
  await page.setInputFiles('form[data-upload] input[type=file]', poisoned);
  await page.click('form[data-upload] button');
  await page.locator('[data-flash].bad').waitFor({ timeout: 15_000 });
  await page.screenshot({ path: join(OUT, '1-poisoned-pipeline.png'), fullPage: true });
  const stopped = (await recentRuns(redis, keys, { pipeline: 'catalog', limit: 1 }))[0]!.id;
  await step('1-poisoned', stopped);

  // 2. alice may not allow her own import (four eyes); bob allows it.
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${url}/runs/${stopped}`);
  await page.click('button:has-text("Allow this plan once")');
  await page.locator('[data-result].bad').waitFor({ timeout: 10_000 });
  await page.screenshot({ path: join(OUT, '2-four-eyes-refused.png'), fullPage: true });
  const allowed = String((await api(`/api/runs/${stopped}/allow-guard`, BOB)).runId);
  await followRun(redis, keys, allowed, () => undefined);
  await step('2-four-eyes', allowed);

  // 3. A wrong credential: the run of the next export is blocked; fixed, then resumed.
  sim.setToken('a-token-ferry-does-not-have');
  // The next export: every product's name changed (the prices as bob allowed them).
  writeFileSync(night, renamed(' (new)'), 'latin1');
  const blocked = await start(night);
  await until(blocked, 'blocked');
  await step('3-wrong-credential', blocked);
  sim.setToken('dev-token');
  await api(`/api/runs/${blocked}/resume`, ALICE);
  await followRun(redis, keys, blocked, () => undefined);
  await step('3-resumed', blocked);

  // 4. The platform accepts the refused products now: their dead letters replayed.
  sim.setFaults({ rejectKeys: [] });
  const letters = await redis.zrange(keys.dlqIndex, '0', '-1');
  const replayed = await api('/api/dead-letters/replay', ALICE, { ids: letters });
  const replay = String((replayed.runs as { runId: string }[])[0]!.runId);
  await step('4-replay', replay);

  // 5. More refusals (a product the platform will never take): purged.
  sim.setFaults({ rejectKeys: ['10000', '074116'] });
  const changed = join(WORK, 'changed.csv');
  writeFileSync(changed, renamed(' (v3)'), 'latin1');
  const more = await start(changed);
  await followRun(redis, keys, more, () => undefined);
  sim.setFaults({ rejectKeys: [] });
  await step('5-refused', more);
  await api('/api/dead-letters/purge', ALICE, {
    ids: await redis.zrange(keys.dlqIndex, '0', '-1'),
  });
  await step('5-purged', more);

  // 6. A big run cancelled part way; 7. undone.
  const big = join(WORK, 'big.csv');
  // Names and prices changed: products first, then prices (a stage of their own).
  writeFileSync(big, renamed(' (v4)').replace(/;(\d+),(\d\d);/g, ';$1,99;'), 'latin1');
  const going = await start(big);
  // Cancelled once the products went: the prices' stage is dropped unsent.
  while (Number((await redis.hget(keys.run(going), 'currentStage')) ?? 0) < 1) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await api(`/api/runs/${going}/cancel`, ALICE);
  await followRun(redis, keys, going, () => undefined);
  await step('6-cancelled', going);
  const undo = String((await api(`/api/runs/${going}/undo`, ALICE)).undoRunId);
  await followRun(redis, keys, undo, () => undefined);
  await step('7-undone', undo);
} finally {
  await stage.close();
  await sim.close();
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
  rmSync(WORK, { recursive: true, force: true });
}
