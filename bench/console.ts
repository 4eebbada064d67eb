/**
 * The console under load: `node --import tsx bench/console.ts [N=20000] [--runs 1000] [--dead-letters 10000]`.
 * 1. Delivery throughput of an N-row catalog run (a worker in this process, the simulator with
 *    2-5 ms latency), once alone and once with `ferry serve` running as a process of its own
 *    and its overview page polled every second; prints both and their ratio (target ≥ 0.95).
 * 2. With `--runs` runs and `--dead-letters` dead letters in Redis (real runs through the
 *    worker; the dead letters are the simulator's refusals of one run's prices), the time each
 *    page, an API list and a /metrics scrape take to answer, 10 times each: p50 and max
 *    (target < 200 ms).
 * Prints one JSON document. Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema, type FerryConfig } from '../src/config/schema.js';
import { createLogger } from '../src/logging/logger.js';
import { deliveryKeys } from '../src/runs/keys.js';
import { followRun } from '../src/runs/follow-run.js';
import { startRun } from '../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../src/queue/worker/delivery-worker.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { startSimulator } from '../src/simulator/start-simulator.js';
import { generateItems } from './generate-items.js';

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string' }, 'dead-letters': { type: 'string' } },
  allowPositionals: true,
});
const rows = Number(positionals[0] ?? 20_000);
const runCount = Number(values.runs ?? 1_000);
const deadLetterCount = Number(values['dead-letters'] ?? 10_000);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TOKEN = 'bench-operator-token-0123456789';
const logger = createLogger({ level: 'warn', format: 'json' });
const work = mkdtempSync(join(tmpdir(), 'ferry-bench-console-'));

function configFor(prefix: string, baseUrl: string): FerryConfig {
  return configSchema.parse({
    redis: { url: REDIS_URL, prefix },
    interface: { baseUrl, auth: { type: 'bearer', token: 'dev-token' } },
    delivery: { reportsDir: join(work, 'reports'), concurrency: 8 },
    serve: { tokens: [{ name: 'bench', role: 'operator', token: TOKEN }] },
    log: { level: 'warn' },
  });
}

/** `ferry serve` as a process of its own, on a free port; resolves with its URL. */
async function startConsole(
  prefix: string,
  baseUrl: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['src/cli/ferry.js', 'serve', '--port', '0'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      REDIS_URL,
      FERRY_PREFIX: prefix,
      FERRY_BASE_URL: baseUrl,
      FERRY_OPERATOR_TOKEN: TOKEN,
      FERRY_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  for await (const chunk of child.stderr!) {
    err += String(chunk);
    const url = /listening on (http:\/\/\S+?);/.exec(err)?.[1];
    if (url) return { url, child };
  }
  throw new Error(`ferry serve did not start: ${err}`);
}

async function deliver(
  config: FerryConfig,
  redis: Redis,
  file: string,
  allowDeletes = false,
): Promise<{ items: number; seconds: number }> {
  const started = process.hrtime.bigint();
  const { runId } = await startRun({
    config,
    redis,
    logger,
    pipeline: 'catalog',
    source: { file },
    allowDeletes,
  });
  await followRun(redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const fields = await redis.hgetall(deliveryKeys(config.redis.prefix).run(runId));
  const items = Object.entries(fields)
    .filter(([k]) => /^op:.+:delivered$/.test(k))
    .reduce((n, [, v]) => n + Number(v), 0);
  return { items, seconds };
}

async function throughput(withConsole: boolean, file: string): Promise<number> {
  const sim = await startSimulator({ port: 0, faults: { latency: [2, 5] } });
  const prefix = `bench-console-${withConsole ? 'on' : 'off'}-${process.pid}`;
  const config = configFor(prefix, sim.url);
  const redis = new Redis(REDIS_URL);
  const worker = await startDeliveryWorker({ config, logger });
  const consoleProcess = withConsole ? await startConsole(prefix, sim.url) : undefined;
  let polls = 0;
  const poller = consoleProcess
    ? setInterval(() => {
        void fetch(`${consoleProcess.url}/`, { headers: { authorization: `Bearer ${TOKEN}` } })
          .then((r) => r.text())
          .then(() => void polls++);
      }, 1_000)
    : undefined;
  try {
    const { items, seconds } = await deliver(config, redis, file);
    if (consoleProcess && polls === 0) throw new Error('the overview was never polled');
    return items / seconds;
  } finally {
    if (poller) clearInterval(poller);
    consoleProcess?.child.kill('SIGTERM');
    await worker.close();
    await sim.close();
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
  }
}

const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;' +
  'Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const row = (no: string, price: string): string =>
  `${no};Item ${no};;Acme;GEN;Gensere;;10;${price};NOK;No;0001;;01.01.2026`;

interface PageTimes {
  runs: number;
  deadLetters: number;
  answerMs: Record<string, { p50: number; max: number }>;
}

async function pageTimes(): Promise<PageTimes> {
  const sim = await startSimulator({ port: 0 });
  const prefix = `bench-console-pages-${process.pid}`;
  const config = configFor(prefix, sim.url);
  const redis = new Redis(REDIS_URL);
  const worker = await startDeliveryWorker({ config, logger });
  try {
    // Runs of two items each; the last one's prices are all refused: the dead letters.
    const small = join(work, 'small.csv');
    for (let i = 0; i < runCount - 1; i++) {
      // A new price each time, so that each run delivers.
      const price = `${i},00`;
      writeFileSync(small, [HEADER, row('B1', price), row('B2', price), ''].join('\r\n'), 'latin1');
      await deliver(config, redis, small);
    }
    // Each refused key gives two dead letters: its product's and its price's.
    const keys = Array.from({ length: Math.ceil(deadLetterCount / 2) }, (_, i) => `R${i}`);
    const refused = join(work, 'refused.csv');
    writeFileSync(refused, [HEADER, ...keys.map((k) => row(k, '5,00')), ''].join('\r\n'), 'latin1');
    await fetch(`${sim.url}/__sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rejectKeys: keys }),
    });
    await deliver(config, redis, refused, true);
    const dlq = await redis.zcard(deliveryKeys(prefix).dlqIndex);
    const runs = await redis.zcard(deliveryKeys(prefix).runIndex);
    const { url, child } = await startConsole(prefix, sim.url);
    try {
      const [lastRun] = await redis.zrevrange(deliveryKeys(prefix).runIndex, 0, 0);
      const [letter] = await redis.zrange(deliveryKeys(prefix).dlqIndex, '0', '0');
      const paths = [
        '/',
        '/runs',
        `/runs/${lastRun}`,
        '/dead-letters',
        `/dead-letters/${letter}`,
        '/dead-letters?key=R9999',
        '/entities?pipeline=catalog&key=R1',
        '/pipelines/catalog',
        '/audit',
        '/api/runs',
        '/api/dead-letters',
        '/metrics',
      ];
      const out: PageTimes['answerMs'] = {};
      for (const path of paths) {
        const times: number[] = [];
        for (let i = 0; i < 11; i++) {
          const started = process.hrtime.bigint();
          const res = await fetch(`${url}${path}`, {
            headers: { authorization: `Bearer ${TOKEN}` },
          });
          await res.text();
          if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
          // The first answer warms the console's caches (JIT, script loading): not counted.
          if (i > 0) times.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        times.sort((a, b) => a - b);
        out[path] = {
          p50: Math.round(times[Math.floor(times.length / 2)]!),
          max: Math.round(times[times.length - 1]!),
        };
      }
      return { runs, deadLetters: dlq, answerMs: out };
    } finally {
      child.kill('SIGTERM');
    }
  } finally {
    await worker.close();
    await sim.close();
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
  }
}

try {
  const file = resolve(PROJECT_ROOT, `.bench-data/plan-items-${rows}.csv`);
  if (!existsSync(file)) await generateItems(rows, file);
  const alone = await throughput(false, file);
  const polled = await throughput(true, file);
  const pages = await pageTimes();
  console.log(
    JSON.stringify(
      {
        rows,
        itemsPerSecAlone: Math.round(alone),
        itemsPerSecWithConsole: Math.round(polled),
        ratio: Number((polled / alone).toFixed(3)),
        ...pages,
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
