/**
 * Exports at scale: `node --import tsx bench/export.ts [N...]` (default 20000 100000). For each N:
 * the simulator (a process of its own) holding N orders, then the shipped orders-export into
 * .bench-data/exports-N, in a fresh process whose peak RSS is the export's alone (the kernel's
 * maxRSS; the heap sampled every 50 ms), and once more with nothing new. Memory should stay flat
 * in N: rows go to the file as each page comes. Prints one JSON line per N and case:
 * {orders, case, items, rows, megabytes, requests, seconds, maxRssMb, peakHeapMb}.
 * Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { spawn } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Redis } from 'ioredis';
import { runExport } from '../src/export/run-export.js';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { startSimulatorProcess } from './simulator-process.js';

const redisUrl = loadConfig().config.redis.url;

/** The child: one export, its figures as one JSON line. */
async function exportOnce(prefix: string, baseUrl: string, out: string): Promise<void> {
  const config = configSchema.parse({
    redis: { url: redisUrl, prefix },
    interface: { baseUrl, auth: { type: 'bearer', token: 'dev-token' } },
    log: { level: 'warn' },
  });
  const redis = new Redis(redisUrl);
  let peakHeap = 0;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 50);
  const started = process.hrtime.bigint();
  try {
    const done = await runExport({
      config,
      redis,
      logger: createLogger({ level: 'warn', format: 'json' }),
      pipeline: 'orders-export',
      out,
    });
    if (done.status !== 'succeeded') throw new Error(JSON.stringify(done.error));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const file = done.files[0];
    console.log(
      JSON.stringify({
        items: done.items,
        rows: done.records,
        megabytes: file ? Number((statSync(file.path).size / 1e6).toFixed(1)) : 0,
        requests: done.requests,
        seconds: Number(seconds.toFixed(2)),
        maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
        peakHeapMb: Math.round(peakHeap / 1e6),
      }),
    );
  } finally {
    clearInterval(sampler);
    redis.disconnect();
  }
}

async function inChild(prefix: string, baseUrl: string, out: string): Promise<object> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/export.ts', '--child', prefix, baseUrl, out],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let text = '';
  for await (const chunk of child.stdout) text += String(chunk);
  return JSON.parse(text.trim().split('\n').pop() as string) as object;
}

async function benchmark(orders: number): Promise<void> {
  const sim = await startSimulatorProcess(['--seed', '1']);
  const prefix = `bench-export-${orders}-${process.pid}`;
  const out = resolve(PROJECT_ROOT, `.bench-data/exports-${orders}`);
  const redis = new Redis(redisUrl);
  try {
    for (let held = 240; held < orders;) {
      const count = Math.min(100_000, orders - held);
      const res = await fetch(`${sim.url}/__sim/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count }),
      });
      if (res.status !== 201) throw new Error(`POST /__sim/orders answered ${res.status}`);
      held += count;
    }
    rmSync(out, { recursive: true, force: true });
    console.log(
      JSON.stringify({ orders, case: 'all new', ...(await inChild(prefix, sim.url, out)) }),
    );
    console.log(
      JSON.stringify({ orders, case: 'nothing new', ...(await inChild(prefix, sim.url, out)) }),
    );
  } finally {
    sim.stop();
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
    rmSync(out, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  await exportOnce(args[1] as string, args[2] as string, args[3] as string);
} else {
  const sizes = args.map(Number);
  for (const orders of sizes.length > 0 ? sizes : [20_000, 100_000]) await benchmark(orders);
}
