/**
 * Ferry on a Redis Cluster: a local three-master cluster started from the redis-server binary, a
 * catalog run delivered by `ferry worker` processes (one killed with SIGKILL mid-run, its jobs
 * taken over: every item delivered, none twice), then an unchanged rerun that plans nothing.
 */
import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { Queue } from 'bullmq';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys, queueName } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { createRedis, masters, type RedisClient } from '../../src/redis/connection.js';
import { deleteKeysUnder } from '../../src/redis/delete-prefix.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { uniquePrefix } from '../helpers/redis.js';
import { startRedisServer, type PrivateRedis } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';
import { requireBinary } from '../helpers/binaries.js';
import { spawnFerry, workerReady, writeConfigFile, type FerryProcess } from './cli-process.js';
import {
  expectAllDeliveredOnce,
  expectNothingOpen,
  quietLogger,
  tempDir,
  testConfig,
} from './delivery-fixtures.js';

const run = promisify(execFile);
const dir = tempDir('cluster');
const nodes: PrivateRedis[] = [];
const workers: FerryProcess[] = [];
let sim: RunningSimulator | undefined;
let redis: RedisClient | undefined;

/** Three masters, no replicas, all 16384 slots assigned; resolves once every node says ok. */
async function startCluster(): Promise<void> {
  requireBinary('redis-cli');
  for (let i = 0; i < 3; i += 1) {
    // Each server has a temp dir of its own, where its cluster-config-file goes.
    nodes.push(
      await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']),
    );
  }
  const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
  await run('redis-cli', [
    '--cluster',
    'create',
    ...addresses,
    '--cluster-replicas',
    '0',
    '--cluster-yes',
  ]);
  await until('cluster_state:ok on every node', async () => {
    for (const n of nodes) {
      const { stdout } = await run('redis-cli', ['-p', String(n.port), 'cluster', 'info']);
      if (!stdout.includes('cluster_state:ok')) return false;
    }
    return true;
  });
}

beforeAll(async () => {
  await startCluster();
  sim = await startSimulator({ port: 0, seed: 7 });
  await generateItems(300, join(dir.path, 'items.csv'), 3);
}, 60_000);

afterAll(async () => {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) {
      w.child.kill('SIGKILL');
      await w.exited;
    }
  }
  await sim?.close();
  if (redis) await redis.quit();
  for (const n of nodes.splice(0)) await n.stop();
  dir.remove();
  await expectNothingOpen();
});

describe('Ferry on a Redis Cluster', () => {
  it('delivers a catalog run once through a worker SIGKILL, and an unchanged rerun plans nothing', async () => {
    const server = sim as RunningSimulator;
    const prefix = uniquePrefix('cluster');
    const target = {
      url: `redis://127.0.0.1:${nodes[0]?.port}`,
      mode: 'cluster' as const,
      nodes: nodes.slice(1).map((n) => `redis://127.0.0.1:${n.port}`),
    };
    const base = testConfig(prefix, server.url, join(dir.path, 'reports'), {
      lockDurationMs: 2000,
      stalledIntervalMs: 1000,
      bundleSize: 10,
    });
    const config: FerryConfig = { ...base, redis: { ...base.redis, ...target } };
    const configFile = writeConfigFile(dir.path, prefix, server.url, { bundleSize: 10 });
    const yaml = parse(readFileSync(configFile, 'utf8')) as { redis: object };
    writeFileSync(configFile, stringify({ ...yaml, redis: { ...yaml.redis, ...target } }));

    const cluster = createRedis(target);
    redis = cluster;
    const keys = deliveryKeys(prefix);
    // The keys of a run, BullMQ's and Ferry's, hash to one slot: every script works on a cluster.
    const slots = await Promise.all(
      [keys.run('r'), keys.activeRuns, `${keys.bullPrefix}:${queueName('bulk')}:wait`].map((k) =>
        cluster.cluster('KEYSLOT', k),
      ),
    );
    expect(new Set(slots).size).toBe(1);

    const a = spawnFerry(['worker'], configFile);
    const b = spawnFerry(['worker'], configFile);
    workers.push(a, b);
    await Promise.all([workerReady(a), workerReady(b)]);

    const source = { file: join(dir.path, 'items.csv') };
    const first = await startRun({
      config,
      redis: cluster,
      logger: quietLogger(),
      pipeline: 'catalog',
      source,
    });
    expect(first.enqueued).toBe(true);
    const bulk = new Queue(queueName('bulk'), { connection: cluster, prefix: keys.bullPrefix });
    const nameOfA = `${hostname()}:${a.child.pid}`;
    try {
      await until('a job active in worker A', async () =>
        (await bulk.getActive()).some((job) => job.processedBy === nameOfA),
      );
    } finally {
      await bulk.close();
    }
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    const c = spawnFerry(['worker'], configFile);
    workers.push(c);

    const done = await followRun(cluster, keys, first.runId, () => undefined);
    expect(done.status).toBe('partial'); // the generated file has a few rejectable records
    expectAllDeliveredOnce(done.operations, server);
    expect(server.state('prices')).toHaveLength(
      done.operations['products.prices.patch']?.planned ?? -1,
    );

    const rerun = await startRun({
      config,
      redis: cluster,
      logger: quietLogger(),
      pipeline: 'catalog',
      source,
    });
    const requests = Object.values(rerun.plan.operations).reduce((n, o) => n + o.requests, 0);
    expect(requests).toBe(0);
    expect(rerun.enqueued).toBe(false);

    // C may still be starting (b can finish the run alone): a SIGTERM before its handler is in
    // place ends it by the signal's default, which is not the graceful stop this checks.
    await workerReady(c);
    for (const w of [b, c]) w.child.kill('SIGTERM');
    expect(await b.exited, b.stderr()).toBe(0);
    expect(await c.exited, c.stderr()).toBe(0);
    await deleteKeysUnder(cluster, prefix);
    const left = await Promise.all((await masters(cluster)).map((m) => m.dbsize()));
    expect(left).toEqual([0, 0, 0]);
  }, 120_000);
});
