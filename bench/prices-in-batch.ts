/**
 * Requests per changed price: `node --import tsx bench/prices-in-batch.ts [--rows N=10000]`.
 * Against the simulator in process (no latency) and one in-process worker, a catalog run puts N
 * items, then a second run on the same items with every price changed (a price-only night); the
 * figure is that run's HTTP requests per changed price (counted by the simulator) and its seconds,
 * once with a description whose products PUT items carry `prices`
 * (test/fixtures/openapi/prices-in-batch-3.0.yaml: bindings' pricesInBatch) and once without one.
 * Target (issue 24): <= 0.02 requests per changed price where the description allows it (1.0
 * without). Prints one JSON line per case. Needs a Redis (REDIS_URL); its keys are deleted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema, type FerryConfig } from '../src/config/schema.js';
import { configFromDescription } from '../src/interface/openapi/configured-contract.js';
import { loadDescription } from '../src/interface/openapi/load-description.js';
import { createLogger } from '../src/logging/logger.js';
import { startRun } from '../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../src/queue/worker/delivery-worker.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { followRun } from '../src/runs/follow-run.js';
import { deliveryKeys } from '../src/runs/keys.js';
import { startSimulator, type RunningSimulator } from '../src/simulator/start-simulator.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '10000' } } });
const ROWS = Number(values.rows);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const DESCRIPTION = resolve(PROJECT_ROOT, 'test/fixtures/openapi/prices-in-batch-3.0.yaml');
const HEADER =
  'No.;Description;Description 2;Vendor Name;Item Category Code;Item Category Name;Parent Category Code;Category Sort;Unit Price;Currency;Blocked;GTIN;Web Handle;Last Date Modified';
const logger = createLogger({ level: 'silent', format: 'json' });
const dir = mkdtempSync(join(tmpdir(), 'ferry-bench-prices-'));

/** The item master, item i priced `base + i` øre. */
function items(name: string, base: number): string {
  const rows: string[] = [HEADER];
  for (let i = 0; i < ROWS; i++) {
    const cents = String(base + i);
    const amount = `${cents.slice(0, -2)},${cents.slice(-2)}`;
    rows.push(`${100_000 + i};Item ${i};;Vendor;C${i % 20};Cat ${i % 20};;1;${amount};NOK;No;;;`);
  }
  const file = join(dir, name);
  writeFileSync(file, `${rows.join('\n')}\n`);
  return file;
}

async function run(config: FerryConfig, redis: Redis, file: string): Promise<void> {
  const started = await startRun({ config, redis, logger, pipeline: 'catalog', source: { file } });
  if (!started.enqueued) return;
  const worker = await startDeliveryWorker({ config, logger });
  try {
    await followRun(redis, deliveryKeys(config.redis.prefix), started.runId, () => undefined);
  } finally {
    await worker.close();
  }
}

async function measure(label: string, described: boolean, sim: RunningSimulator, redis: Redis) {
  const prefix = `bench-prices-${label}-${process.pid}`;
  const base = configSchema.parse({
    redis: { url: REDIS_URL, prefix },
    interface: { baseUrl: sim.url, auth: { type: 'bearer', token: 'dev-token' } },
    delivery: { concurrency: 8, reportsDir: join(dir, 'reports') },
    log: { level: 'silent' },
  });
  const config = described ? configFromDescription(base, await loadDescription(DESCRIPTION)) : base;
  try {
    await run(config, redis, items(`${label}-a.csv`, 10_000));
    const before = sim.stats().requests;
    const t0 = performance.now();
    await run(config, redis, items(`${label}-b.csv`, 50_000));
    const seconds = (performance.now() - t0) / 1000;
    const requests = sim.stats().requests - before;
    const held = sim.state('prices') as { productId: string; prices: { amount: string }[] }[];
    const exact = held.filter((p) => {
      const i = Number(p.productId) - 100_000;
      return p.prices[0]?.amount === ((50_000 + i) / 100).toFixed(2);
    }).length;
    console.log(
      JSON.stringify({
        case: label,
        changedPrices: ROWS,
        requests,
        requestsPerChangedPrice: Number((requests / ROWS).toFixed(4)),
        seconds: Number(seconds.toFixed(2)),
        pricesHeldExactly: exact,
      }),
    );
  } finally {
    await deleteKeysUnder(redis, prefix);
  }
}

const redis = new Redis(REDIS_URL);
try {
  for (const [label, described] of [
    ['described', true],
    ['none', false],
  ] as const) {
    const sim = await startSimulator({ port: 0, seed: 1 });
    try {
      await measure(label, described, sim, redis);
    } finally {
      await sim.close();
    }
  }
} finally {
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
