/**
 * Scale-out: `node --import tsx bench/scale-out.ts [N=4000] [--workers 1,2,4,8] [--rate R=150]
 * [--latency 20-60]`. Against the simulator (a process of its own) answering after 20-60 ms, as a
 * real platform does:
 *  1. a catalog run of an N-row items.csv (bench/generate-items.ts) delivered by W `ferry worker`
 *     processes, for each W: items/s from the run's start (after planning) to its end;
 *  2. the same run by 4 workers against a platform that allows R requests/s (the simulator's
 *     --rate-limit: 429 with Retry-After past it) with delivery.ratePerSecond R: the share of R
 *     achieved (requests that were not refused, per second of delivery) and the share of answers
 *     that were 429.
 * Prints one JSON line per measurement. Needs a Redis (REDIS_URL); its keys are deleted at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { executeRun } from '../src/orchestrate/execute-run.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';

const { values, positionals } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2,4,8' },
    rate: { type: 'string', default: '150' },
    latency: { type: 'string', default: '20-60' },
  },
  allowPositionals: true,
});
const rows = Number(positionals[0] ?? 4000);
const data = resolve(PROJECT_ROOT, '.bench-data');
const file = resolve(data, `scale-items-${rows}.csv`);
const TOKEN = 'dev-token';
const FERRY = resolve(PROJECT_ROOT, 'src/cli/ferry.js');

interface SimStats {
  requests: number;
  rateLimited: number;
  duplicates: number;
}

async function startSimulator(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [FERRY, 'simulator', '--port', '0', '--json', ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    if (out.includes('}')) break;
  }
  return { url: (JSON.parse(out) as { url: string }).url, child };
}

async function simStats(url: string): Promise<SimStats> {
  return (await (await fetch(`${url}/__sim/stats`)).json()) as SimStats;
}

function configFor(redisUrl: string, prefix: string, simUrl: string, ratePerSecond: number) {
  return {
    redis: { url: redisUrl, prefix },
    interface: { baseUrl: simUrl, auth: { type: 'bearer', token: TOKEN } },
    delivery: { ratePerSecond, reportsDir: resolve(data, 'reports') },
    log: { level: 'warn', format: 'json' },
  };
}

/** Starts `count` worker processes and resolves once each says it is delivering. */
async function startWorkers(count: number, configFile: string): Promise<ChildProcess[]> {
  return await Promise.all(
    Array.from({ length: count }, async () => {
      const child = spawn(process.execPath, [FERRY, 'worker'], {
        cwd: PROJECT_ROOT,
        env: { ...process.env, FERRY_CONFIG: configFile },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      for await (const chunk of child.stderr!) {
        err += String(chunk);
        if (err.includes('ferry worker: delivering')) break;
      }
      return child;
    }),
  );
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((done) => {
          w.once('exit', () => done());
          w.kill('SIGTERM');
        }),
    ),
  );
}

/** One catalog run delivered by `workers` processes; the figures of its delivery. */
async function measure(
  redis: Redis,
  redisUrl: string,
  simUrl: string,
  workers: number,
  ratePerSecond: number,
): Promise<Record<string, number>> {
  const prefix = `ferry-bench-scale-${process.pid}-${workers}-${ratePerSecond}`;
  const raw = configFor(redisUrl, prefix, simUrl, ratePerSecond);
  const configFile = resolve(data, `scale-${prefix}.yaml`);
  writeFileSync(configFile, stringify(raw));
  await fetch(`${simUrl}/__sim/reset`, { method: 'POST' });
  const before = await simStats(simUrl);
  const procs = await startWorkers(workers, configFile);
  try {
    const report = await executeRun({
      config: configSchema.parse(raw),
      logger: createLogger({ level: 'warn', format: 'json' }),
      pipeline: 'catalog',
      source: { file },
      wait: true,
      localWorker: false,
    });
    const after = await simStats(simUrl);
    const seconds =
      (Date.parse(report.finishedAt ?? report.startedAt) - Date.parse(report.startedAt)) / 1000;
    const items = Object.values(report.operations).reduce((n, op) => n + op.delivered, 0);
    const requests = after.requests - before.requests;
    const refused = after.rateLimited - before.rateLimited;
    return {
      workers,
      items,
      requests,
      seconds,
      itemsPerSec: Math.round(items / seconds),
      requestsPerSec: Math.round((requests - refused) / seconds),
      rateLimited: refused,
      duplicates: after.duplicates - before.duplicates,
    };
  } finally {
    await stopWorkers(procs);
    await deleteKeysUnder(redis, prefix);
  }
}

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  if (!existsSync(file)) await generateItems(rows, file);
  const redisUrl = loadConfig().config.redis.url;
  const redis = new Redis(redisUrl);
  const latency = ['--latency', values.latency];
  try {
    const open = await startSimulator(latency);
    try {
      for (const w of values.workers.split(',').map(Number)) {
        console.log(
          JSON.stringify({ case: 'scale', ...(await measure(redis, redisUrl, open.url, w, 0)) }),
        );
      }
    } finally {
      open.child.kill('SIGTERM');
    }
    const rate = Number(values.rate);
    const limited = await startSimulator([...latency, '--rate-limit', String(rate)]);
    try {
      const m = await measure(redis, redisUrl, limited.url, 4, rate);
      console.log(
        JSON.stringify({
          case: 'rate-limited',
          rateLimit: rate,
          ...m,
          shareOfRate: Number((m.requestsPerSec! / rate).toFixed(3)),
          share429: Number((m.rateLimited! / m.requests!).toFixed(4)),
        }),
      );
    } finally {
      limited.child.kill('SIGTERM');
    }
  } finally {
    redis.disconnect();
  }
}

await main();
