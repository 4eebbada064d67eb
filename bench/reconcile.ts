/**
 * Reconciliation at scale: `node --import tsx bench/reconcile.ts [N...]` (default 20000 100000).
 * For each N: an N-row items.csv (bench/generate-items.ts) delivered once to the simulator (a
 * process of its own), then `ferry reconcile catalog` of what it holds, timed in this process,
 * with the process's peak RSS and heap sampled while it runs. Memory should stay flat in N: the
 * listing streams page by page against state read in batches. Prints one JSON line per N:
 * {rows, products, requests, seconds, peakRssMb, peakHeapMb, drift}.
 * Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { loadPipeline } from '../src/pipeline/definition/load-pipeline.js';
import { executeRun } from '../src/queue/runs/execute-run.js';
import { reconcilePipeline } from '../src/reconcile/reconcile-pipeline.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';
import { startSimulatorProcess } from './simulator-process.js';

const sizes = process.argv.slice(2).map(Number);
const logger = createLogger({ level: 'warn', format: 'json' });
const redisUrl = loadConfig().config.redis.url;

for (const rows of sizes.length > 0 ? sizes : [20_000, 100_000]) {
  const file = resolve(PROJECT_ROOT, `.bench-data/plan-items-${rows}.csv`);
  if (!existsSync(file)) await generateItems(rows, file);
  const sim = await startSimulatorProcess();
  const prefix = `bench-reconcile-${rows}-${process.pid}`;
  const config = configSchema.parse({
    redis: { url: redisUrl, prefix },
    interface: { baseUrl: sim.url, auth: { type: 'bearer', token: 'dev-token' } },
    delivery: { concurrency: 16, reportsDir: resolve(PROJECT_ROOT, '.bench-data/reports') },
    log: { level: 'warn' },
  });
  const redis = new Redis(redisUrl);
  try {
    await executeRun({
      config,
      logger,
      pipeline: 'catalog',
      source: { file },
      wait: true,
      localWorker: true,
      allowDeletes: true,
    });
    global.gc?.();
    let peakRss = 0;
    let peakHeap = 0;
    const sample = (): void => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    };
    const sampler = setInterval(sample, 50);
    const started = process.hrtime.bigint();
    const doc = await reconcilePipeline({
      config,
      redis,
      logger,
      definition: loadPipeline('catalog', config),
      pageSize: 500,
      source: { file },
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    sample();
    console.log(
      JSON.stringify({
        rows,
        products: doc.checked,
        requests: doc.requests,
        seconds: Number(seconds.toFixed(2)),
        peakRssMb: Math.round(peakRss / 1e6),
        peakHeapMb: Math.round(peakHeap / 1e6),
        drift: doc.missing + doc.different + doc.unknown,
      }),
    );
  } finally {
    sim.stop();
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
  }
}
