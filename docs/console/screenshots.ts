/**
 * Takes the screenshots of docs/CONSOLE.md: `npm run docs:screenshots` (needs a Redis at REDIS_URL
 * and Chromium, see test/helpers/browser.ts). A simulator that refuses two products, a worker and
 * the console run in this process on keys of their own (removed at the end); the sample pipelines
 * run on examples/, a short export is stopped by the mass-delete guard, a bigger catalog is
 * still running when the overview is taken, and one more is blocked by a wrong credential, then
 * cancelled. Writes docs/console/*.png.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { configSchema } from '../../src/config/schema.js';
import { createLogger } from '../../src/logging/logger.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { deleteKeysUnder } from '../../src/redis/delete-prefix.js';
import { startSimulator } from '../../src/simulator/start-simulator.js';
import { generateItems } from '../../bench/generate-items.js';
import { openStage } from './console-stage.js';

const OUT = resolve(PROJECT_ROOT, 'docs/console');
const OPERATOR = 'screenshot-operator-token';
const prefix = `ferry-screenshots-${process.pid}`;
const logger = createLogger({ level: 'warn', format: 'json' });
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const sim = await startSimulator({
  port: 0,
  seed: 1,
  faults: { rejectKeys: ['10003', '10007'], latency: [20, 60] },
});
const config = configSchema.parse({
  redis: { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix },
  interface: { baseUrl: sim.url, auth: { type: 'bearer', token: 'dev-token' } },
  delivery: { reportsDir: join(OUT, '.reports'), concurrency: 4 },
  serve: { tokens: [{ name: 'alice', role: 'operator', token: OPERATOR }] },
  log: { level: 'warn' },
});
const keys = deliveryKeys(prefix);
const stage = await openStage(config, redis, logger);
const { url, browser } = stage;

async function run(pipeline: string, file: string, allowDeletes = false): Promise<string> {
  const { runId } = await startRun({
    config,
    redis,
    logger,
    pipeline,
    source: { file },
    sourceName: file.replace(`${PROJECT_ROOT}/`, ''),
    allowDeletes,
  });
  await followRun(redis, keys, runId, () => undefined);
  return runId;
}

try {
  const examples = (name: string) => resolve(PROJECT_ROOT, 'examples', name);
  const catalog = await run('catalog', examples('items.csv'));
  await run('stores', examples('stores.csv'));
  await run('users', examples('users.csv'));
  // A short export: the guard stops it.
  const short = join(OUT, '.short-items.csv');
  const lines = readFileSync(examples('items.csv'), 'latin1').split(/\r?\n/);
  writeFileSync(short, lines.slice(0, 30).join('\r\n'), 'latin1');
  const stopped = await run('catalog', short).catch(
    (error: { details?: { runId?: string } }) => error.details?.runId ?? '',
  );
  const [letter] = await redis.zrange(keys.dlqIndex, '0', '0');
  // A bigger catalog still going while the overview is taken.
  const big = join(OUT, '.big-items.csv');
  await generateItems(3_000, big);
  const going = await startRun({
    config,
    redis,
    logger,
    pipeline: 'catalog',
    source: { file: big },
    allowDeletes: true,
  });

  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  const shot = async (name: string, path: string, full = true): Promise<void> => {
    await page.goto(`${url}${path}`);
    await page.waitForTimeout(600);
    await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: full });
    process.stdout.write(`docs/console/${name}.png\n`);
  };
  await shot('login', '/login', false);
  await page.fill('#token', OPERATOR);
  await Promise.all([page.waitForURL(`${url}/`), page.click('button[type=submit]')]);
  await page.waitForTimeout(3_000);
  await shot('overview', '/');
  await shot('runs', '/runs', false);
  await shot('run', `/runs/${catalog}`);
  await shot('guard-stopped', `/runs/${stopped}`, false);
  await shot('dead-letters', '/dead-letters?pipeline=catalog', false);
  await shot('dead-letter', `/dead-letters/${letter}`);
  await shot('entity-trace', '/entities?pipeline=catalog&key=10003');
  // A product whose row the catalog run rejected (a price written 12,34,56).
  await shot('entity-trace-rejected', '/entities?pipeline=catalog&key=10025');
  await shot('pipeline', '/pipelines/stores', false);
  await shot('audit', '/audit', false);
  await shot('queues', '/queues', false);
  await followRun(redis, keys, going.runId, () => undefined);

  // A wrong credential: the breaker blocks a catalog of new prices; then an operator cancels it.
  sim.setToken('a-token-ferry-does-not-have');
  const changed = join(OUT, '.changed-items.csv');
  await generateItems(3_000, changed, 8);
  const refused = await startRun({
    config,
    redis,
    logger,
    pipeline: 'catalog',
    source: { file: changed },
    allowDeletes: true,
  });
  while ((await redis.hget(keys.run(refused.runId), 'status')) !== 'blocked') {
    await new Promise((r) => setTimeout(r, 200));
  }
  await shot('run-blocked', `/runs/${refused.runId}`, false);
  await fetch(`${url}/api/runs/${refused.runId}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR}` },
  });
  await followRun(redis, keys, refused.runId, () => undefined);
  await shot('run-cancelled', `/runs/${refused.runId}`, false);
} finally {
  await stage.close();
  await sim.close();
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
  for (const f of ['.reports', '.short-items.csv', '.big-items.csv', '.changed-items.csv']) {
    rmSync(join(OUT, f), { recursive: true, force: true });
  }
}
