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
import { deleteKeysUnder } from '../redis/index.js';
import { startSimulator, type RunningSimulator } from '../simulator/index.js';
import { connectDelivery, startDeliveryWorker } from '../queue/index.js';
import { executeRun } from '../orchestrate/index.js';
import { reportText, type RunReport } from '../runs/index.js';
import { buildServer } from '../serve/index.js';
import { demoRedis } from './demo-redis.js';

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
  out.write(
    `Ferry demo: simulator at ${sim.url} (listing ${sim.listing}), Redis at ${redis.private ? 'a private redis-server' : 'REDIS_URL'}, keys under ${config.redis.prefix}:\n\n`,
  );
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
    if (!options.once && !options.signal.aborted) {
      const consoleServer = await startConsole(config, logger, options.consolePort);
      try {
        out.write(
          `\nThe simulator keeps serving at ${sim.url}: try\n` +
            `  curl -s ${sim.url}/__sim/state/products\n` +
            `  FERRY_BASE_URL=${sim.url} ferry call products.get --json\n` +
            `The console is at ${consoleServer.url}/ : log in with the viewer token ${consoleServer.viewerToken}\n` +
            `(or, to act, the operator token ${consoleServer.operatorToken}); both last as long as the demo.\n` +
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
