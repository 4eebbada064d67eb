/**
 * `ferry demo`: the whole of Ferry on one machine. The simulator (in this process), a Redis (see
 * demo-redis.ts), a worker (in this process), and the four sample pipelines run on examples/, each
 * followed to its report; then what landed in the simulator. Unless --once, it then keeps serving,
 * with the console (`ferry serve`) started on tokens of its own. Everything the demo writes to
 * Redis is under a prefix of its own, removed when it ends.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { PROJECT_ROOT, type FerryConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import { deleteKeysUnder, redisWhere } from '../redis/index.js';
import { startSimulator, type RunningSimulator } from '../simulator/index.js';
import { connectDelivery, startDeliveryWorker } from '../queue/index.js';
import { executeRun } from '../orchestrate/index.js';
import { reportText, type RunReport } from '../runs/index.js';
import { buildServer } from '../serve/index.js';
import { demoRedis, type DemoRedis } from './demo-redis.js';

/** The sample pipelines, in the order the demo runs them, with their files in examples/. */
export const DEMO_PIPELINES: readonly [string, string][] = [
  ['catalog', 'items.csv'],
  ['stores', 'stores.csv'],
  ['users', 'users.csv'],
  ['item-changes', 'item-changes.csv'],
];

const RESOURCES = ['categories', 'products', 'prices', 'stores', 'users'];

export interface DemoOptions {
  config: FerryConfig;
  logger: Logger;
  out: Writable;
  progress: Writable;
  once: boolean;
  /** The simulator's port (0: a free one). */
  port: number;
  /** The console's port when serving (a free one when it is taken). */
  consolePort: number;
  signal: AbortSignal;
}

export interface DemoResult {
  reports: RunReport[];
  landed: Record<string, number>;
  simulatorUrl: string;
}

function demoConfig(config: FerryConfig, redisUrl: string, sim: RunningSimulator): FerryConfig {
  // The demo's platform is its simulator, which plays Ferry's own assumed description: a real
  // platform's (interface.openapi) would shape bodies the simulator does not take.
  const ownInterface = { ...config.interface };
  delete ownInterface.openapi;
  return {
    ...config,
    redis: {
      url: redisUrl,
      mode: 'standalone', // the demo's Redis is one server (maybe a private one)
      prefix: `${config.redis.prefix}-demo-${randomBytes(3).toString('hex')}`,
    },
    interface: {
      ...ownInterface,
      baseUrl: sim.url,
      useDemo: false,
      listing: sim.listing,
      auth: { type: 'bearer', token: 'dev-token' },
    },
  };
}

/** The console on the demo's Redis, with a viewer and an operator token made for this demo. */
async function startConsole(
  config: FerryConfig,
  logger: Logger,
  port: number,
): Promise<{ url: string; viewerToken: string; operatorToken: string; close(): Promise<void> }> {
  const viewerToken = randomBytes(16).toString('hex');
  const operatorToken = randomBytes(16).toString('hex');
  const redis = await connectDelivery(
    config.redis,
    "the demo's queues, runs and state are kept there",
  );
  const app = await buildServer({
    config: {
      ...config,
      serve: {
        ...config.serve,
        tokens: [
          { name: 'demo-viewer', role: 'viewer', token: viewerToken },
          { name: 'demo-operator', role: 'operator', token: operatorToken },
        ],
      },
    },
    redis,
    logger,
  });
  let url: string;
  try {
    url = await app.listen({ host: '127.0.0.1', port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  }
  return {
    url,
    viewerToken,
    operatorToken,
    async close() {
      await app.close();
      redis.disconnect();
    },
  };
}

/** What the demo runs on, and that the sample's bad rows are there on purpose. */
function introduction(
  sim: RunningSimulator,
  redis: DemoRedis,
  configuredUrl: string,
  prefix: string,
): string {
  const where = redis.private
    ? `Redis: a private redis-server at ${redisWhere(redis.url)} (none answered at ${redisWhere(configuredUrl)})`
    : `Redis at ${redisWhere(redis.url)}`;
  return (
    `Ferry demo: the simulator at ${sim.url} (listing ${sim.listing}) plays the platform;\n` +
    `${where}, keys under ${prefix} (removed at the end).\n` +
    'The sample export in examples/ holds bad rows on purpose, to show how Ferry reports them:\n' +
    'their runs end "partial", each report lists its rejected rows (file:line, field, what was\n' +
    'expected) and names the CSV that holds them all ("failures:"); the other rows are delivered.\n'
  );
}

/** The runs' outcome in one sentence: the rejected rows being the sample's own bad rows. */
function outcome(reports: RunReport[]): string {
  const rejected = reports.reduce((sum, r) => sum + r.rejected, 0);
  const dead = reports.reduce((sum, r) => sum + r.deadLettered, 0);
  if (dead > 0) return `${dead} items were dead-lettered: their reports above say why.\n`;
  if (rejected === 0) return 'Every row was delivered.\n';
  return `Every valid row was delivered; the ${rejected} rejected rows are the sample's bad rows.\n`;
}

const REAL_PLATFORM =
  "For a real platform: docs/INTERFACE.md, \"From 'I have the platform's OpenAPI URL' to the first run\".";

const NEXT_STEPS =
  '\nNext: `npx ferry demo` runs the same, then keeps the simulator and the console (the operating\n' +
  `pages) serving until Ctrl-C.\n${REAL_PLATFORM}\n`;

async function removeKeys(url: string, prefix: string): Promise<void> {
  const redis = await connectDelivery(url, "the demo's queues, runs and state are kept there");
  try {
    await deleteKeysUnder(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const { logger, out } = options;
  const redis = await demoRedis(options.config.redis.url, logger);
  const sim = await startSimulator({ port: options.port, seed: 1 });
  const config = demoConfig(options.config, redis.url, sim);
  out.write(`${introduction(sim, redis, options.config.redis.url, config.redis.prefix)}\n`);
  const worker = await startDeliveryWorker({ config, logger });
  try {
    const reports: RunReport[] = [];
    for (const [pipeline, file] of DEMO_PIPELINES) {
      out.write(`$ ferry run ${pipeline} --file examples/${file} --wait\n`);
      const report = await executeRun({
        config,
        logger,
        pipeline,
        // Its records and rejects name the file as the command above shows it.
        source: { file: resolve(PROJECT_ROOT, 'examples', file), name: `examples/${file}` },
        sourceName: `examples/${file}`,
        wait: true,
        localWorker: false,
        progress: options.progress,
        signal: options.signal,
      });
      reports.push(report);
      out.write(`${reportText(report)}\n`);
    }
    const landed = Object.fromEntries(RESOURCES.map((r) => [r, sim.state(r).length]));
    const stats = sim.stats();
    out.write(
      `What landed in the simulator: ${RESOURCES.map((r) => `${landed[r]} ${r}`).join(', ')}\n` +
        `(${stats.requests} requests, ${stats.duplicates} applied twice)\n`,
    );
    out.write(`\n${outcome(reports)}`);
    if (options.once) out.write(NEXT_STEPS);
    else if (!options.signal.aborted) {
      const consoleServer = await startConsole(config, logger, options.consolePort);
      try {
        out.write(
          `\nThe simulator keeps serving at ${sim.url}: try\n` +
            `  curl -s ${sim.url}/__sim/state/products\n` +
            `  FERRY_BASE_URL=${sim.url} ferry call products.get --json\n` +
            `The console is at ${consoleServer.url}/ : log in with the viewer token ${consoleServer.viewerToken}\n` +
            `(or, to act, the operator token ${consoleServer.operatorToken}); both last as long as the demo.\n` +
            `${REAL_PLATFORM}\n` +
            'Ctrl-C stops the demo.\n',
        );
        await new Promise<void>((r) =>
          options.signal.addEventListener('abort', () => r(), { once: true }),
        );
      } finally {
        await consoleServer.close();
      }
    }
    return { reports, landed, simulatorUrl: sim.url };
  } finally {
    await worker.close();
    await sim.close();
    await removeKeys(redis.url, config.redis.prefix).catch(() => undefined);
    await redis.private?.stop();
  }
}
