/**
 * Reconciliation at scale: `node --import tsx bench/reconcile.ts [N...]` (default 20000 100000).
 * For each N: an N-row items.csv (bench/generate-items.ts) delivered once to the simulator (a
 * process of its own), then `ferry reconcile catalog` of what it holds, twice, each in a fresh
 * process of its own so that its peak RSS is the reconciliation's alone (the kernel's maxRSS;
 * the heap sampled every 50 ms): once in step, once after 1% of the products were renamed in
 * the simulator (PATCH, as a back office would), which adds the read of the source that names the
 * differing fields. Memory should stay flat in N: the listing streams page by page against state
 * read in batches, the drift stays in Redis. Prints one JSON line per N and case:
 * {rows, case, checked, different, drift, requests, seconds, maxRssMb, peakHeapMb, heapAfterGcMb}.
 * BENCH_LIVE_HEAP=1 forces a GC before each heap sample: peakHeapMb is then the live objects'.
 * Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema, type FerryConfig } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { loadPipeline } from '../src/pipeline/definition/load-pipeline.js';
import { executeRun } from '../src/orchestrate/execute-run.js';
import { reconcilePipeline } from '../src/reconcile/reconcile-pipeline.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';
import { startSimulatorProcess } from './simulator-process.js';

const logger = createLogger({ level: 'warn', format: 'json' });
const redisUrl = loadConfig().config.redis.url;

function benchConfig(prefix: string, baseUrl: string): FerryConfig {
  return configSchema.parse({
    redis: { url: redisUrl, prefix },
    interface: { baseUrl, auth: { type: 'bearer', token: 'dev-token' } },
    delivery: { concurrency: 16, reportsDir: resolve(PROJECT_ROOT, '.bench-data/reports') },
    log: { level: 'warn' },
  });
}

/** The child: one reconciliation, its figures as one JSON line. */
async function reconcileOnce(prefix: string, baseUrl: string, file: string): Promise<void> {
  const config = benchConfig(prefix, baseUrl);
  const redis = new Redis(redisUrl);
  let peakHeap = 0;
  const sampler = setInterval(() => {
    // BENCH_LIVE_HEAP=1: a full GC before each sample, so the peak is of live objects only
    // (V8 otherwise lets garbage pile up as far as its heap has grown); the seconds then are not.
    if (process.env.BENCH_LIVE_HEAP) global.gc?.();
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 50);
  const started = process.hrtime.bigint();
  try {
    const doc = await reconcilePipeline({
      config,
      redis,
      logger,
      definition: loadPipeline('catalog', config),
      pageSize: 500,
      source: { file },
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    global.gc?.();
    const liveHeap = process.memoryUsage().heapUsed;
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    console.log(
      JSON.stringify({
        checked: doc.checked,
        different: doc.different,
        drift: doc.missing + doc.different + doc.unknown,
        requests: doc.requests,
        seconds: Number(seconds.toFixed(2)),
        maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        peakHeapMb: Math.round(peakHeap / 1e6),
        heapAfterGcMb: Math.round(liveHeap / 1e6),
      }),
    );
  } finally {
    clearInterval(sampler);
    redis.disconnect();
  }
}

async function inChild(prefix: string, baseUrl: string, file: string): Promise<object> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', 'bench/reconcile.ts', '--child', prefix, baseUrl, file],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  for await (const chunk of child.stdout) out += String(chunk);
  return JSON.parse(out.trim().split('\n').pop() as string) as object;
}

/** Renames every 100th product in the simulator, as a back office would. */
async function driftOnePercent(baseUrl: string): Promise<number> {
  const auth = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };
  const all = (await (
    await fetch(`${baseUrl}/__sim/state/products`, { headers: auth })
  ).json()) as {
    externalId: string;
  }[];
  const edits = all.filter((_, i) => i % 100 === 0).map((p) => ({ ...p, name: 'Back office' }));
  for (let i = 0; i < edits.length; i += 100) {
    const res = await fetch(`${baseUrl}/external/api/products`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify(edits.slice(i, i + 100)),
    });
    if (!res.ok) throw new Error(`PATCH answered ${res.status}`);
  }
  return edits.length;
}

async function benchmark(rows: number): Promise<void> {
  const file = resolve(PROJECT_ROOT, `.bench-data/plan-items-${rows}.csv`);
  if (!existsSync(file)) await generateItems(rows, file);
  const sim = await startSimulatorProcess();
  const prefix = `bench-reconcile-${rows}-${process.pid}`;
  const redis = new Redis(redisUrl);
  try {
    await executeRun({
      config: benchConfig(prefix, sim.url),
      logger,
      pipeline: 'catalog',
      source: { file },
      wait: true,
      localWorker: true,
      allowDeletes: true,
    });
    console.log(
      JSON.stringify({ rows, case: 'in step', ...(await inChild(prefix, sim.url, file)) }),
    );
    const edited = await driftOnePercent(sim.url);
    console.log(
      JSON.stringify({
        rows,
        case: `${edited} renamed`,
        ...(await inChild(prefix, sim.url, file)),
      }),
    );
  } finally {
    sim.stop();
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await reconcileOnce(args[1] as string, args[2] as string, args[3] as string);
} else {
  const sizes = args.map(Number);
  for (const rows of sizes.length > 0 ? sizes : [20_000, 100_000]) await benchmark(rows);
}
