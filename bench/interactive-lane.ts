/**
 * The interactive lane, measured: `node --import tsx bench/interactive-lane.ts [--rows N=50000]
 * [--workers W=2] [--latency 10-30] [--imports 5] [--stores 100] [--rounds R=1]`.
 * Against the simulator (a process of its own) answering after --latency ms, with W `ferry worker`
 * processes and a `ferry serve` (the stores pipeline on the interactive lane, the catalog on bulk):
 *  1. alone: a catalog run of an N-row items.csv (bench/generate-items.ts; 50,000 rows are about
 *     100,000 items) from the end of its planning to its end: items/s;
 *  2. with imports: the same catalog run on fresh state, and while it delivers, --imports store
 *     imports of --stores rows each POSTed one after another (a second apart) to
 *     `POST /api/pipelines/stores/runs?wait=true`; each file differs from the last, so every
 *     import really sends its stores. Figures: POST to answer (the run has ended) p50 and max, and
 *     the catalog's items/s and how much slower it was than alone;
 *  3. as the whole run's rate mixes stages (products carry 100 items a request, prices one), also
 *     the prices stage's rate over the stretch the imports took (from a second into the stage), and
 *     over the same stretch of the run alone (where a 300 ms pause stands in for each import), with
 *     the console's CPU seconds meanwhile (from /proc).
 * Each measurement has its own Redis prefix, workers and console, and a reset simulator; R rounds
 * repeat the pair. Prints one JSON line per measurement and one summary line per round. Needs a
 * Redis (REDIS_URL); its keys are deleted at the end. Targets: each import < 5 s, catalog slowed
 * < 10%. The generated file holds a few rejectable rows, so the catalog run ends `partial`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { stringify } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { connectDelivery } from '../src/queue/connect.js';
import { deliveryKeys } from '../src/runs/keys.js';
import { followRun } from '../src/runs/follow-run.js';
import type { RunRecord } from '../src/runs/run-record.js';
import { startRun } from '../src/orchestrate/start-run.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';
import { processCpuSeconds } from './process-cpu.js';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '50000' },
    workers: { type: 'string', default: '2' },
    latency: { type: 'string', default: '10-30' },
    imports: { type: 'string', default: '5' },
    stores: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '1' },
  },
});
const rows = Number(values.rows);
const workerCount = Number(values.workers);
const importCount = Number(values.imports);
const storeCount = Number(values.stores);
const data = resolve(PROJECT_ROOT, '.bench-data');
const itemsFile = resolve(data, `plan-items-${rows}.csv`);
const FERRY = resolve(PROJECT_ROOT, 'src/cli/ferry.js');
const SIM_TOKEN = 'dev-token';
const OPERATOR_TOKEN = 'bench-operator-token-0123456789';

/** A child process and the lines it wrote on stderr so far (kept read, so it never blocks). */
interface Child {
  process: ChildProcess;
  stderr: string;
}

/** Spawns `ferry ARGS` and resolves once `ready` (a regexp) matches its stdout or stderr. */
async function spawnFerry(args: string[], env: NodeJS.ProcessEnv, ready: RegExp) {
  const child: Child = {
    process: spawn(process.execPath, [FERRY, ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    stderr: '',
  };
  let out = '';
  const match = await new Promise<RegExpExecArray>((done, fail) => {
    const look = (chunk: Buffer, err: boolean) => {
      out += String(chunk);
      if (err) child.stderr = (child.stderr + String(chunk)).slice(-4000);
      const m = ready.exec(out);
      if (m) done(m);
    };
    child.process.stdout!.on('data', (c: Buffer) => look(c, false));
    child.process.stderr!.on('data', (c: Buffer) => look(c, true));
    child.process.once('exit', (code) =>
      fail(new Error(`ferry ${args[0]} exited ${code}: ${child.stderr}`)),
    );
  });
  return { child, match };
}

async function stop(children: Child[]): Promise<void> {
  await Promise.all(
    children.map(
      ({ process: p }) =>
        new Promise<void>((done) => {
          if (p.exitCode !== null) return done();
          p.once('exit', () => done());
          p.kill('SIGTERM');
        }),
    ),
  );
}

/** Store list k: the columns of examples/stores.csv, every row's name and phone new in each file. */
function writeStores(k: number): string {
  const file = resolve(data, `interactive-stores-${storeCount}-${k}.csv`);
  const lines = ['Store No.,Name,Address,Post Code,City,Country,Phone,E-Mail,Web URL,Open'];
  for (let i = 1; i <= storeCount; i++) {
    const no = `B${String(i).padStart(4, '0')}`;
    lines.push(
      `${no},Butikk ${i} (import ${k}),Storgata ${i},0150,Oslo,NO,+47 ${String(
        10_000_000 + k * 1000 + i,
      )},butikk${i}@example.no,https://example.no/butikk/${i},${i % 7 === 0 ? 'No' : 'Yes'}`,
    );
  }
  writeFileSync(file, `${lines.join('\r\n')}\r\n`);
  return file;
}

function configFor(redisUrl: string, prefix: string, simUrl: string) {
  return {
    redis: { url: redisUrl, prefix },
    interface: { baseUrl: simUrl, auth: { type: 'bearer', token: SIM_TOKEN } },
    delivery: { reportsDir: resolve(data, 'reports'), pipelineLanes: { stores: 'interactive' } },
    log: { level: 'warn', format: 'json' },
  };
}

interface ImportFigure {
  seconds: number;
  status: string;
  delivered: number;
}

/** POSTs store list `file` and waits for the answer: the run's document once it has ended. */
async function postImport(serveUrl: string, file: string): Promise<ImportFigure> {
  const started = performance.now();
  const res = await request(`${serveUrl}/api/pipelines/stores/runs?wait=true`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'text/csv' },
    body: readFileSync(file),
  });
  const body = (await res.body.json()) as {
    status?: string;
    operations?: Record<string, { delivered: number }>;
  };
  const seconds = (performance.now() - started) / 1000;
  if (res.statusCode !== 200)
    throw new Error(`import answered ${res.statusCode}: ${JSON.stringify(body)}`);
  return {
    seconds: Number(seconds.toFixed(3)),
    status: body.status ?? '?',
    delivered: body.operations?.['stores.put']?.delivered ?? 0,
  };
}

const PRICES = 'products.prices.patch';
/** In the run alone, a pause in place of each import (about what a warm import takes). */
const PLACEBO_MS = 300;

/** Prices delivered at time `at`: the last sample taken by then. */
function pricesAt(samples: { at: number; prices: number }[], at: number): number {
  let prices = 0;
  for (const s of samples) if (s.at <= at) prices = s.prices;
  return prices;
}

/**
 * Within one run, the prices stage's rate (prices/s) while the imports went on, and over the rest
 * of that stage: the same stage of the same run, so the machine's load drifts less between them.
 */
function pricesRates(samples: { at: number; prices: number }[], [from, to]: [number, number]) {
  const start = samples.find((s) => s.prices > 0)!;
  const end = samples.at(-1)!;
  const inside = pricesAt(samples, to) - pricesAt(samples, from);
  const outsideSeconds = (end.at - start.at - (to - from)) / 1000;
  return {
    during: Math.round(inside / ((to - from) / 1000)),
    otherwise: Math.round((end.prices - start.prices - inside) / outsideSeconds),
  };
}

function delivered(run: RunRecord): number {
  return Object.values(run.operations).reduce((n, op) => n + op.delivered, 0);
}

/** One catalog run (with imports during it, or alone) on fresh state and fresh processes. */
async function measure(
  redis: Redis,
  redisUrl: string,
  simUrl: string,
  withImports: boolean,
  tag: string,
): Promise<Record<string, unknown>> {
  const prefix = `ferry-bench-lane-${process.pid}-${tag}`;
  const raw = configFor(redisUrl, prefix, simUrl);
  const configFile = resolve(data, `lane-${prefix}.yaml`);
  writeFileSync(configFile, stringify(raw));
  await fetch(`${simUrl}/__sim/reset`, { method: 'POST' });
  const env = { FERRY_CONFIG: configFile, FERRY_OPERATOR_TOKEN: OPERATOR_TOKEN };
  const children: Child[] = [];
  const config = configSchema.parse(raw);
  const client = await connectDelivery(config.redis, 'the benchmark keeps its queues there');
  try {
    for (let w = 0; w < workerCount; w++) {
      children.push((await spawnFerry(['worker'], env, /ferry worker: delivering/)).child);
    }
    const serve = await spawnFerry(['serve', '--port', '0'], env, /listening on (http:\S+?);/);
    children.push(serve.child);
    const serveUrl = serve.match[1]!;

    const started = await startRun({
      config,
      redis: client,
      logger: createLogger({ level: 'warn', format: 'json' }),
      pipeline: 'catalog',
      source: { file: itemsFile },
    });
    const keys = deliveryKeys(prefix);
    let finishedAt = 0;
    // The prices delivered over time (followRun reads the record every 25 ms).
    const samples: { at: number; prices: number }[] = [];
    const followed = followRun(client, keys, started.runId, (run) => {
      samples.push({ at: Date.now(), prices: run.operations[PRICES]?.delivered ?? 0 });
      if (run.finishedAt && !finishedAt) finishedAt = Date.now();
    });
    const imports: (ImportFigure & { duringCatalog: boolean })[] = [];
    // A window into the prices stage (most of the run), so the rates compared are of one stage:
    // the imports, or alone the same pauses with a placebo of PLACEBO_MS instead of each import.
    while (!finishedAt && !(samples.at(-1)?.prices ?? 0)) await sleep(25);
    await sleep(1000);
    const from = Date.now();
    const serveCpu = processCpuSeconds(serve.child.process.pid) ?? 0;
    for (let k = 1; k <= importCount; k++) {
      if (withImports) {
        const figure = await postImport(serveUrl, writeStores(k));
        imports.push({ ...figure, duringCatalog: finishedAt === 0 });
      } else await sleep(PLACEBO_MS);
      if (k < importCount) await sleep(1000);
    }
    const window: [number, number] = [from, Date.now()];
    const serveCpuDuring = (processCpuSeconds(serve.child.process.pid) ?? 0) - serveCpu;
    const run = await followed;
    const seconds = (run.finishedAt! - run.createdAt) / 1000;
    const items = delivered(run);
    const times = imports.map((i) => i.seconds).sort((a, b) => a - b);
    const within = pricesRates(samples, window);
    return {
      case: withImports ? 'catalog+imports' : 'catalog alone',
      workers: workerCount,
      latency: values.latency,
      status: run.status,
      items,
      seconds,
      itemsPerSec: Math.round(items / seconds),
      ...(withImports
        ? {
            imports: imports.length,
            importsDuringCatalog: imports.filter((i) => i.duringCatalog).length,
            importP50: times[Math.floor((times.length - 1) / 2)],
            importMax: times.at(-1),
            importSeconds: imports.map((i) => i.seconds),
            importStatuses: [...new Set(imports.map((i) => `${i.status}/${i.delivered}`))],
          }
        : {}),
      windowSeconds: (window[1] - window[0]) / 1000,
      pricesPerSecInWindow: within.during,
      pricesPerSecOtherwise: within.otherwise,
      serveCpuSecondsInWindow: Number(serveCpuDuring.toFixed(2)),
    };
  } finally {
    await stop(children);
    client.disconnect();
    await deleteKeysUnder(redis, prefix);
  }
}

async function startSimulator(): Promise<{ url: string; child: Child }> {
  const { child, match } = await spawnFerry(
    ['simulator', '--port', '0', '--json', '--latency', values.latency],
    {},
    /"url":\s*"([^"]+)"/,
  );
  return { url: match[1]!, child };
}

async function main(): Promise<void> {
  mkdirSync(data, { recursive: true });
  if (!existsSync(itemsFile)) await generateItems(rows, itemsFile);
  const redisUrl = loadConfig().config.redis.url;
  const redis = new Redis(redisUrl);
  const sim = await startSimulator();
  try {
    for (let round = 1; round <= Number(values.rounds); round++) {
      const alone = await measure(redis, redisUrl, sim.url, false, `${round}a`);
      console.log(JSON.stringify(alone));
      const mixed = await measure(redis, redisUrl, sim.url, true, `${round}b`);
      console.log(JSON.stringify(mixed));
      const slowed = 1 - (mixed.itemsPerSec as number) / (alone.itemsPerSec as number);
      // The same stretch of the prices stage (from a second into it), with and without imports.
      const windowSlowed =
        1 - (mixed.pricesPerSecInWindow as number) / (alone.pricesPerSecInWindow as number);
      console.log(
        JSON.stringify({
          case: 'summary',
          round,
          importP50: mixed.importP50,
          importMax: mixed.importMax,
          catalogSlowedPct: Number((slowed * 100).toFixed(1)),
          windowSlowedPct: Number((windowSlowed * 100).toFixed(1)),
          targetsMet: (mixed.importMax as number) < 5 && slowed < 0.1,
        }),
      );
    }
  } finally {
    await stop([sim.child]);
    redis.disconnect();
  }
}

await main();
