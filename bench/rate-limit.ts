/**
 * The rate governor against platforms whose limit Ferry is not told:
 * `node --import tsx bench/rate-limit.ts [--rate R=40] [--rows N=2400] [--workers W=2]
 * [--latency 10-30] [--cases ietf,x,none,halved,cost,imports]`.
 * Each case starts the simulator (a process of its own, answering after --latency ms) with
 * `--rate-limit R`, W `ferry worker` processes on `delivery.ratePerSecond: auto` (a fresh Redis
 * prefix: nothing learnt before) and delivers a catalog run of an N-row items.csv (prices go one
 * request per product, so the run is mostly single requests). Cases:
 *  - configured: `ratePerSecond: R`, the limit known (the baseline, on the same machine state);
 *  - ietf, x: the simulator sends IETF RateLimit-Policy/RateLimit or X-RateLimit-* headers;
 *  - none: no headers: the limit is discovered from the 429s;
 *  - halved: no headers, and the limit drops to R/2 a third of the way into the run: how long until
 *    no 429 came for 5 s (settleSeconds), and the share of R/2 achieved after that;
 *  - cost: no headers, a limit of R*5 items per second where a request costs its items;
 *  - imports: no headers, and while the catalog saturates the limit, 10 imports of 100 stores
 *    (the interactive lane) one after another: each import's seconds from start to report, p50/p95.
 * Figures: the share of R achieved (accepted requests per second, from the stats the simulator
 * gives every 250 ms, from 5 s (discovery) after the run's first request to its last) and the share of 429s over the
 * whole run. Targets (docs/BENCHMARKS.md): headers >= 0.95 R and < 1% 429s; none >= 0.9 R and < 3%;
 * halved settled < 10 s; imports p95 < 3 s. Prints one JSON line per case. Needs a Redis
 * (REDIS_URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { executeRun } from '../src/orchestrate/execute-run.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';
import { startSimulatorProcess } from './simulator-process.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '40' },
    rows: { type: 'string', default: '2400' },
    workers: { type: 'string', default: '2' },
    latency: { type: 'string', default: '10-30' },
    cases: { type: 'string', default: 'configured,ietf,x,none,halved,cost,imports' },
  },
});
const R = Number(values.rate);
const rows = Number(values.rows);
const data = resolve(PROJECT_ROOT, '.bench-data');
const itemsFile = resolve(data, `rate-items-${rows}.csv`);
const FERRY = resolve(PROJECT_ROOT, 'src/cli/ferry.js');
const TOKEN = 'dev-token';
const DISCOVERY_S = 5;
const QUIET_S = 5;

interface Sample {
  at: number;
  requests: number;
  rateLimited: number;
}

function configFor(
  redisUrl: string,
  prefix: string,
  simUrl: string,
  ratePerSecond: number | 'auto',
) {
  return {
    redis: { url: redisUrl, prefix },
    interface: { baseUrl: simUrl, auth: { type: 'bearer', token: TOKEN } },
    delivery: {
      ratePerSecond,
      reportsDir: resolve(data, 'reports'),
      pipelineLanes: { stores: 'interactive' },
    },
    log: { level: 'warn', format: 'json' },
  };
}

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
      child.stderr!.resume();
      return child;
    }),
  );
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((done) => {
          if (w.exitCode !== null) return done();
          w.once('exit', () => done());
          w.kill('SIGTERM');
        }),
    ),
  );
}

function writeStores(k: number): string {
  const file = resolve(data, `rate-stores-${k}.csv`);
  const lines = ['Store No.,Name,Address,Post Code,City,Country,Phone,E-Mail,Web URL,Open'];
  for (let i = 1; i <= 100; i++) {
    const no = `R${String(i).padStart(4, '0')}`;
    lines.push(
      `${no},Butikk ${i} (import ${k}),Storgata ${i},0150,Oslo,NO,+47 ${10_000_000 + k * 1000 + i},butikk${i}@example.no,https://example.no/butikk/${i},Yes`,
    );
  }
  writeFileSync(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
}

/** Accepted requests per second between two sample times. */
function acceptedRate(samples: Sample[], from: number, to: number): number {
  const a = samples.find((s) => s.at >= from) ?? samples[0]!;
  const b = [...samples].reverse().find((s) => s.at <= to) ?? samples.at(-1)!;
  const accepted = b.requests - b.rateLimited - (a.requests - a.rateLimited);
  return accepted / ((b.at - a.at) / 1000);
}

/** The first time after `from` from which no 429 came for QUIET_S seconds. */
function settledAt(samples: Sample[], from: number): number | undefined {
  for (const s of samples) {
    if (s.at < from) continue;
    const later = samples.filter((x) => x.at >= s.at && x.at <= s.at + QUIET_S * 1000);
    if (later.at(-1)!.at - s.at < QUIET_S * 1000 - 300) return undefined;
    if (later.at(-1)!.rateLimited === s.rateLimited) return s.at;
  }
  return undefined;
}

async function runCase(name: string, redis: Redis, redisUrl: string): Promise<object> {
  const simArgs = [
    '--latency',
    values.latency,
    '--rate-limit',
    String(name === 'cost' ? R * 5 : R),
  ];
  if (name === 'ietf' || name === 'x') simArgs.push('--rate-limit-headers', name);
  if (name === 'cost') simArgs.push('--rate-limit-cost', 'items');
  const sim = await startSimulatorProcess(simArgs);
  const prefix = `ferry-bench-rate-${process.pid}-${name}`;
  const raw = configFor(redisUrl, prefix, sim.url, name === 'configured' ? R : 'auto');
  const configFile = resolve(data, `rate-${name}.yaml`);
  writeFileSync(configFile, stringify(raw));
  const workers = await startWorkers(Number(values.workers), configFile);
  const samples: Sample[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const stats = (await (await fetch(`${sim.url}/__sim/stats`)).json()) as Sample;
      samples.push({ at: Date.now(), requests: stats.requests, rateLimited: stats.rateLimited });
      await sleep(250);
    }
  })();
  const started = Date.now();
  const config = configSchema.parse(raw);
  const logger = createLogger({ level: 'warn', format: 'json' });
  let changeAt: number | undefined;
  const imports: number[] = [];
  try {
    const catalog = executeRun({
      config,
      logger,
      pipeline: 'catalog',
      source: { file: itemsFile },
      wait: true,
      localWorker: false,
    });
    const expected = rows / R; // seconds the run takes at the limit
    if (name === 'halved') {
      await sleep((expected / 3) * 1000);
      changeAt = Date.now();
      await fetch(`${sim.url}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ rateLimit: R / 2 }),
      });
    }
    if (name === 'imports') {
      await sleep(DISCOVERY_S * 2000);
      for (let k = 0; k < 10; k++) {
        const t0 = performance.now();
        await executeRun({
          config,
          logger,
          pipeline: 'stores',
          source: { file: writeStores(k) },
          wait: true,
          localWorker: false,
        });
        imports.push((performance.now() - t0) / 1000);
        await sleep(500);
      }
    }
    const report = await catalog;
    sampling = false;
    await sampler;
    const ended = Date.now();
    const last = samples.at(-1)!;
    // The run's tail (the last stage settling, the report) sends nothing: measure while it sends.
    const lastSent = samples.find((s) => s.requests === last.requests)!.at;
    // Discovery starts with the first request, not with the run: planning (slow on a loaded
    // machine) sends nothing.
    const firstSent = samples.find((s) => s.requests > 0)?.at ?? started;
    const figures: Record<string, unknown> = {
      case: name,
      rateLimit: name === 'cost' ? `${R * 5} items/s` : R,
      status: report.status,
      seconds: Number(((ended - started) / 1000).toFixed(1)),
      requests: last.requests,
      share429: Number((last.rateLimited / last.requests).toFixed(4)),
      acceptedPerSecond: Number(
        acceptedRate(samples, firstSent + DISCOVERY_S * 1000, changeAt ?? lastSent).toFixed(1),
      ),
    };
    if (name !== 'cost') {
      figures.shareOfR = Number(((figures.acceptedPerSecond as number) / R).toFixed(3));
    }
    if (changeAt !== undefined) {
      const settled = settledAt(samples, changeAt);
      figures.settleSeconds = settled === undefined ? null : (settled - changeAt) / 1000;
      if (settled !== undefined) {
        figures.shareOfHalvedR = Number(
          (acceptedRate(samples, settled, lastSent) / (R / 2)).toFixed(3),
        );
      }
    }
    if (imports.length > 0) {
      const sorted = [...imports].sort((a, b) => a - b);
      figures.importSecondsP50 = Number(quantile(sorted, 0.5).toFixed(2));
      figures.importSecondsP95 = Number(quantile(sorted, 0.95).toFixed(2));
    }
    return figures;
  } finally {
    sampling = false;
    await stopWorkers(workers);
    sim.stop();
    await deleteKeysUnder(redis, prefix);
  }
}

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  if (!existsSync(itemsFile)) await generateItems(rows, itemsFile);
  const redisUrl = loadConfig().config.redis.url;
  const redis = new Redis(redisUrl);
  try {
    for (const name of values.cases.split(',')) {
      console.log(JSON.stringify(await runCase(name, redis, redisUrl)));
    }
  } finally {
    redis.disconnect();
  }
}

await main();
