/**
 * Scale-out: `node --import tsx bench/scale-out.ts [N=4000] [--workers 1,2,4,8] [--rate R=150]
 * [--latency 20-60] [--case scale,rate-limited,platforms,no-latency] [--platform-rate P=5]
 * [--sim-processes N]`. Against the
 * simulator (a process of its own) answering after 20-60 ms, as a real platform does:
 *  1. a catalog run of an N-row items.csv (bench/generate-items.ts) delivered by W `ferry worker`
 *     processes, for each W: items/s from the run's start (after planning) to its end;
 *  2. the same run by 4 workers against a platform that allows R requests/s (the simulator's
 *     --rate-limit: 429 with Retry-After past it) with delivery.ratePerSecond R: the share of R
 *     achieved (requests that were not refused, per second of delivery) and the share of answers
 *     that were 429.
 *  3. two platforms (`--case platforms`): two simulators, `limited` (delivery.ratePerSecond P=5
 *     in Ferry's config: the rate gate holds its jobs, which hand themselves back) and
 *     `unlimited`; a catalog that fans out to both (catalog@limited started first, then
 *     catalog@unlimited) delivered by 4 workers: the unlimited run's seconds and requests/s beside
 *     the same run with no limited run beside it (once before, once after), the limited one's
 *     achieved rate (and for 6 s alone after), its requests per second, the jobs handed back
 *     (BullMQ's `delayed` events) and duplicates; then the limited run is cancelled.
 *  4. `--case no-latency`: case 1 against a simulator answering at once (`--latency 0`), by 1
 *     worker and by as many as the machine has cores: where the simulator's CPU, not the
 *     platform's latency, bounds the run.
 * `--case` picks some of scale, rate-limited, platforms, no-latency (default the first three).
 * `--sim-processes N` runs every simulator as `ferry simulator --processes N` (default 1).
 * Prints one JSON line per measurement. Needs a Redis (REDIS_URL); its keys are deleted at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { executeRun } from '../src/orchestrate/execute-run.js';
import { startRun } from '../src/orchestrate/start-run.js';
import { cancelRun } from '../src/queue/cancel-run.js';
import { followRun } from '../src/runs/follow-run.js';
import { deliveryKeys, LANES, queueName } from '../src/runs/keys.js';
import { loadRun } from '../src/runs/run-report.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';

const { values, positionals } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2,4,8' },
    rate: { type: 'string', default: '150' },
    latency: { type: 'string', default: '20-60' },
    case: { type: 'string', default: 'scale,rate-limited,platforms' },
    'platform-rate': { type: 'string', default: '5' },
    'sim-processes': { type: 'string', default: '1' },
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

const SIM_PROCESSES = Number(values['sim-processes']);

async function startSimulator(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const processes = SIM_PROCESSES > 1 ? ['--processes', String(SIM_PROCESSES)] : [];
  const sim = ['simulator', '--port', '0', '--json', ...processes, ...args];
  const child = spawn(process.execPath, [FERRY, ...sim], {
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

const PLATFORM_WORKERS = 4;
/** How long the limited run goes on alone once the unlimited one has finished. */
const LIMITED_ALONE_MS = 6_000;

/** The shipped catalog, fanned out to both platforms. */
function fanOutCatalog(dir: string): void {
  const shipped = readFileSync(resolve(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8');
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, 'catalog.yaml'), `${shipped}\nplatforms: [limited, unlimited]\n`);
}

/** Jobs moved to delayed (a hand-back; a retry's backoff too), per run, counted as they happen. */
async function countDelayed(redisUrl: string, prefix: string) {
  const bullPrefix = deliveryKeys(prefix).bullPrefix;
  const jobIds: string[] = [];
  const listeners = await Promise.all(
    LANES.map(async (lane) => {
      const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
      const events = new QueueEvents(queueName(lane), { connection, prefix: bullPrefix });
      events.on('delayed', ({ jobId }) => jobIds.push(jobId));
      await events.waitUntilReady();
      return { events, connection };
    }),
  );
  return {
    of: (runId: string) => jobIds.filter((id) => id.startsWith(`${runId}.`)).length,
    close: async () => {
      for (const { events, connection } of listeners) {
        await events.close();
        connection.disconnect();
      }
    },
  };
}

/**
 * catalog@unlimited delivered by PLATFORM_WORKERS workers, with catalog@limited started first and
 * delivering beside it (`beside`) or not at all; the limited run is cancelled once the unlimited
 * one has finished.
 */
async function measurePlatforms(
  redis: Redis,
  redisUrl: string,
  sims: { limited: string; unlimited: string },
  rate: number,
  beside: boolean,
): Promise<Record<string, unknown>> {
  const prefix = `ferry-bench-platforms-${process.pid}-${beside ? 'beside' : 'alone'}`;
  const pipelines = resolve(data, `pipelines-${prefix}`);
  fanOutCatalog(pipelines);
  const auth = { type: 'bearer', token: TOKEN };
  const raw = {
    ...configFor(redisUrl, prefix, sims.unlimited, 0),
    platforms: {
      limited: { baseUrl: sims.limited, auth, delivery: { ratePerSecond: rate } },
      unlimited: { baseUrl: sims.unlimited, auth },
    },
    pipelines: { dir: pipelines },
  };
  const configFile = resolve(data, `scale-${prefix}.yaml`);
  writeFileSync(configFile, stringify(raw));
  const config = configSchema.parse(raw);
  const keys = deliveryKeys(prefix);
  const logger = createLogger({ level: 'warn', format: 'json' });
  for (const url of [sims.limited, sims.unlimited]) {
    await fetch(`${url}/__sim/reset`, { method: 'POST' });
  }
  const delayed = await countDelayed(redisUrl, prefix);
  const procs = await startWorkers(PLATFORM_WORKERS, configFile);
  const perSecond: number[] = [];
  const unlimitedPerSecond: number[] = [];
  let sampling: NodeJS.Timeout | undefined;
  try {
    const source = { file };
    // Each platform's requests in each second from the limited run's planning on.
    const seen = { limited: 0, unlimited: 0 };
    sampling = setInterval(() => {
      void Promise.all([simStats(sims.limited), simStats(sims.unlimited)]).then(([l, u]) => {
        perSecond.push(l.requests - seen.limited);
        unlimitedPerSecond.push(u.requests - seen.unlimited);
        seen.limited = l.requests;
        seen.unlimited = u.requests;
      });
    }, 1_000);
    const limited = beside
      ? await startRun({ config, redis, logger, pipeline: 'catalog@limited', source })
      : undefined;
    const unlimited = await startRun({
      config,
      redis,
      logger,
      pipeline: 'catalog@unlimited',
      source,
    });
    const done = await followRun(redis, keys, unlimited.runId, () => undefined);
    const seconds = ((done.finishedAt ?? Date.now()) - done.createdAt) / 1000;
    const open = await simStats(sims.unlimited);
    const items = Object.values(done.operations).reduce((n, op) => n + op.delivered, 0);
    const result: Record<string, unknown> = {
      beside: beside ? 'catalog@limited' : 'nothing',
      unlimited: {
        status: done.status,
        items,
        requests: open.requests,
        seconds,
        requestsPerSec: Math.round((open.requests - open.rateLimited) / seconds),
        ...(beside ? { perSecond: unlimitedPerSecond.slice() } : {}),
        handedBack: delayed.of(unlimited.runId),
        duplicates: open.duplicates,
      },
    };
    if (limited) {
      const run = await loadRun(redis, keys, limited.runId);
      const held = await simStats(sims.limited);
      const limitedSeconds = (Date.now() - run.createdAt) / 1000;
      const planned = Object.values(run.operations).reduce((n, op) => n + op.planned, 0);
      const sent = Object.values(run.operations).reduce((n, op) => n + op.delivered, 0);
      const unlimitedEndedAtSecond = perSecond.length;
      // The limited run alone for a while: its rate once nothing else is queued.
      await new Promise((r) => setTimeout(r, LIMITED_ALONE_MS));
      const after = await simStats(sims.limited);
      clearInterval(sampling);
      result.limited = {
        ratePerSecond: rate,
        status: run.status,
        items: `${sent} of ${planned}`,
        requests: held.requests,
        seconds: limitedSeconds,
        requestsPerSec: Number(((held.requests - held.rateLimited) / limitedSeconds).toFixed(2)),
        requestsPerSecAloneAfter: Number(
          ((after.requests - held.requests) / (LIMITED_ALONE_MS / 1000)).toFixed(2),
        ),
        perSecond,
        unlimitedEndedAtSecond,
        rateLimited: after.rateLimited,
        handedBack: delayed.of(limited.runId),
        duplicates: after.duplicates,
      };
      const cancelled = await cancelRun({
        redis,
        keys,
        reportsDir: config.delivery.reportsDir,
        runId: limited.runId,
        timeoutMs: 30_000,
        notify: { config, redis, keys, logger },
      });
      (result.limited as Record<string, unknown>).after = cancelled.status;
    }
    return result;
  } finally {
    clearInterval(sampling);
    await delayed.close();
    await stopWorkers(procs);
    await deleteKeysUnder(redis, prefix);
    rmSync(pipelines, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  if (!existsSync(file)) await generateItems(rows, file);
  const redisUrl = loadConfig().config.redis.url;
  const redis = new Redis(redisUrl);
  const latency = ['--latency', values.latency];
  const cases = new Set(values.case.split(','));
  try {
    if (cases.has('scale')) {
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
    }
    if (cases.has('no-latency')) {
      const open = await startSimulator(['--latency', '0']);
      try {
        for (const w of [...new Set([1, availableParallelism()])]) {
          const m = await measure(redis, redisUrl, open.url, w, 0);
          console.log(JSON.stringify({ case: 'no-latency', simProcesses: SIM_PROCESSES, ...m }));
        }
      } finally {
        open.child.kill('SIGTERM');
      }
    }
    if (cases.has('rate-limited')) {
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
    }
    if (cases.has('platforms')) {
      const rate = Number(values['platform-rate']);
      const limited = await startSimulator(latency);
      const unlimited = await startSimulator(latency);
      try {
        const sims = { limited: limited.url, unlimited: unlimited.url };
        // Alone before and after: the first run also warms the simulators up.
        const alone = await measurePlatforms(redis, redisUrl, sims, rate, false);
        const beside = await measurePlatforms(redis, redisUrl, sims, rate, true);
        const again = await measurePlatforms(redis, redisUrl, sims, rate, false);
        const a = [alone.unlimited, again.unlimited] as Record<string, number>[];
        const b = beside.unlimited as Record<string, number>;
        // Against the faster of the two: the comparison least kind to the claim.
        const aloneRate = Math.max(a[0]!.requestsPerSec!, a[1]!.requestsPerSec!);
        console.log(
          JSON.stringify({
            case: 'platforms',
            workers: PLATFORM_WORKERS,
            unlimitedAlone: a,
            unlimitedBesideLimited: b,
            limited: beside.limited,
            besideOverAlone: Number((b.requestsPerSec! / aloneRate).toFixed(3)),
          }),
        );
      } finally {
        limited.child.kill('SIGTERM');
        unlimited.child.kill('SIGTERM');
      }
    }
  } finally {
    redis.disconnect();
  }
}

await main();
