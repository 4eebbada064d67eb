/**
 * The breaker with a wrong credential: `node --import tsx bench/breaker.ts [N=20000]`. A catalog
 * run of an N-row items.csv (bench/generate-items.ts) against the simulator (in process) whose
 * accepted token is not Ferry's, one worker with the default concurrency and breaker settings
 * (threshold 20, a probe every 30 s). Prints the requests sent until the run was blocked, the
 * dead letters then, and, after the simulator's token is set right, how long until the next probe
 * resumed the run, its end status, the items delivered of planned and the duplicates the
 * simulator saw. Needs a Redis (REDIS_URL); its keys are deleted at the end.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { createDeadLetterStore } from '../src/runs/dead-letters/dead-letter-store.js';
import { deliveryKeys } from '../src/runs/keys.js';
import { followRun } from '../src/runs/follow-run.js';
import { itemCounts, loadRun } from '../src/runs/run-report.js';
import { startRun } from '../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../src/queue/worker/delivery-worker.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { startSimulator } from '../src/simulator/start-simulator.js';
import { generateItems } from './generate-items.js';

const rows = Number(process.argv[2] ?? 20_000);
const data = resolve(PROJECT_ROOT, '.bench-data');
const file = resolve(data, `breaker-items-${rows}.csv`);
if (!existsSync(file)) {
  mkdirSync(data, { recursive: true });
  await generateItems(rows, file, 7);
}
const prefix = `bench-breaker-${process.pid}`;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const sim = await startSimulator({ port: 0, seed: 7 });
sim.setToken('not-the-token-ferry-has');
const config = configSchema.parse({
  redis: { url: redisUrl, prefix },
  interface: { baseUrl: sim.url, auth: { type: 'bearer', token: 'dev-token' } },
  delivery: { reportsDir: resolve(data, 'reports') },
  log: { level: 'silent' },
});
const logger = createLogger({ level: 'silent', format: 'json' });
const redis = new Redis(redisUrl);
const keys = deliveryKeys(prefix);
const worker = await startDeliveryWorker({ config, logger });
try {
  const { runId } = await startRun({
    config,
    redis,
    logger,
    pipeline: 'catalog',
    source: { file },
  });
  while ((await loadRun(redis, keys, runId)).status !== 'blocked') await sleep(50);
  const atBlock = sim.stats().requests;
  const deadLetters = await createDeadLetterStore(redis, keys).count();
  console.log(JSON.stringify({ rows, blocked: true, requestsUntilBlocked: atBlock, deadLetters }));
  // One probe interval with the wrong token still: at most one more request.
  await sleep(config.delivery.breaker.probeSeconds * 1000 + 2_000);
  const afterProbe = sim.stats().requests;
  sim.setToken('dev-token');
  const fixedAt = Date.now();
  let resumedAfterS: number | undefined;
  const run = await followRun(redis, keys, runId, (r) => {
    if (resumedAfterS === undefined && r.status === 'running') {
      resumedAfterS = (Date.now() - fixedAt) / 1000;
    }
  });
  const items = itemCounts(run);
  console.log(
    JSON.stringify({
      requestsAfterOneProbeInterval: afterProbe,
      resumedAfterS,
      status: run.status,
      planned: items.planned,
      delivered: items.delivered,
      failed: items.failed,
      deadLetters: await createDeadLetterStore(redis, keys).count(),
      duplicates: sim.stats().duplicates,
    }),
  );
} finally {
  await worker.close();
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
  await sim.close();
}
