/**
 * How long a run takes to start: `node --import tsx bench/run-start.ts [N=100000] [--runs R]`.
 * Times startRun (what `ferry run` does before its first request can go out: read, map, check and
 * plan the file against state, write the run's jobs and stages, record the run, release its first
 * stage) of the catalog pipeline over an N-row items.csv (bench/generate-items.ts), against a fresh
 * key prefix (every entity new: the first night, as bench/delivery.ts runs it). No worker runs.
 * Each start runs in a process of its own (cold, as `ferry run` is); R of them, one after another.
 * Prints one JSON line per start: seconds, cpuSeconds (this process, user + system, all threads),
 * mainCpuSeconds (its main thread's alone, on Linux) and loopSeconds
 * (the time the event loop was busy: the main thread's work, not waiting for Redis) to the end
 * of reading (`read`: the rows planned, but for the grouped categories and deletes), to the plan's
 * end (`planned`) and to the first stage released (`started`), and Redis's own CPU seconds over the
 * start (shared with whatever else uses that Redis).
 * Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { boundHeapGrowth } from '../src/pipeline/heap-tuning.js';
import { startRun } from '../src/orchestrate/start-run.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';
import { mainThreadCpuSeconds, redisCpuSeconds } from './process-cpu.js';

const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    // Internal: one start, in this process, under this prefix.
    prefix: { type: 'string' },
  },
  allowPositionals: true,
});
const rows = Number(positionals[0] ?? 100_000);
const file = resolve(PROJECT_ROOT, `.bench-data/plan-items-${rows}.csv`);

async function oneStart(prefix: string): Promise<void> {
  boundHeapGrowth(); // as `ferry run` does
  const base = loadConfig().config;
  const config = configSchema.parse({
    redis: { url: base.redis.url, prefix },
    // Nothing is sent: no worker runs, so the platform's address is never called.
    interface: { baseUrl: 'http://127.0.0.1:9', auth: { type: 'bearer', token: 'dev-token' } },
    log: { level: 'warn' },
  });
  const redis = new Redis(base.redis.url);
  const marks: Record<
    string,
    { seconds: number; cpuSeconds: number; mainCpuSeconds?: number; loopSeconds: number }
  > = {};
  const redisBefore = await redisCpuSeconds(redis);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const mainCpu = mainThreadCpuSeconds();
  const loop = performance.eventLoopUtilization();
  const mark = (name: string) => {
    const used = process.cpuUsage(cpu);
    marks[name] = {
      seconds: Number((Number(process.hrtime.bigint() - started) / 1e9).toFixed(2)),
      cpuSeconds: Number(((used.user + used.system) / 1e6).toFixed(2)),
      ...(mainCpu !== undefined
        ? { mainCpuSeconds: Number(((mainThreadCpuSeconds() ?? 0) - mainCpu).toFixed(2)) }
        : {}),
      loopSeconds: Number((performance.eventLoopUtilization(loop).active / 1e3).toFixed(2)),
    };
  };
  try {
    const run = await startRun({
      config,
      redis,
      logger: createLogger({ level: 'warn', format: 'json' }),
      pipeline: 'catalog',
      source: { file },
      onProgress: ({ phase }) => {
        if (phase === 'deletes') mark('read');
        else if (phase === 'done') mark('planned');
      },
    });
    mark('started');
    const redisCpu = Number(((await redisCpuSeconds(redis)) - redisBefore).toFixed(2));
    const requests = Object.values(run.plan.operations).reduce((n, c) => n + c.requests, 0);
    console.log(
      JSON.stringify({
        rows: run.plan.rows,
        requests,
        ...marks,
        redisCpuSeconds: redisCpu,
        peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      }),
    );
  } finally {
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
  }
}

if (values.prefix) {
  await oneStart(values.prefix);
} else {
  if (!existsSync(file)) await generateItems(rows, file);
  const self = fileURLToPath(import.meta.url);
  for (let i = 0; i < Number(values.runs); i++) {
    const prefix = `ferry-bench-start-${process.pid}-${i}`;
    // execArgv: `--import tsx`, and a --cpu-prof given to this process profiles the start's.
    const args = [...process.execArgv, self, String(rows), '--prefix', prefix];
    const r = spawnSync(process.execPath, args, {
      stdio: 'inherit',
      cwd: PROJECT_ROOT,
    });
    if (r.status !== 0) throw new Error(`start ${i} failed (exit ${r.status})`);
  }
}
