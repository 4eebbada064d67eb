/**
 * Ctrl-C or SIGTERM on `ferry run --wait`: while following, the command detaches (exit 4) and
 * says how to follow the run, which goes on in the workers; while planning, nothing is enqueued
 * and the pipeline is free again.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { FERRY_BIN } from '../helpers/ferry-bin.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import {
  killLeft,
  spawnFerry,
  workerReady,
  writeConfigFile,
  type FerryProcess,
} from './cli-process.js';
import { expectNothingOpen, tempDir } from './delivery-fixtures.js';

const dir = tempDir('detach');
const items = join(dir.path, 'items.csv');
const prefixes: string[] = [];
const processes: FerryProcess[] = [];
let sim: RunningSimulator;
let redis: Redis;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 3 });
  redis = new Redis(TEST_REDIS_URL);
  await generateItems(600, items, 6);
});

afterEach(async () => await killLeft(processes));

afterAll(async () => {
  await sim.close();
  redis.disconnect();
  for (const p of prefixes) await deleteKeys(p);
  dir.remove();
  await expectNothingOpen();
});

function setup(label: string) {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  sim.reset();
  sim.setFaults({ latency: [40, 60] });
  return {
    prefix,
    configFile: writeConfigFile(dir.path, prefix, sim.url, {}, TEST_REDIS_URL, `${label}.yaml`),
  };
}

function start(args: string[], configFile: string): FerryProcess {
  const p = spawnFerry(args, configFile);
  processes.push(p);
  return p;
}

async function runStatus(prefix: string, runId: string): Promise<string | null> {
  return await redis.hget(deliveryKeys(prefix).run(runId), 'status');
}

const runIdOf = (text: string): string => /run (catalog-\S+):/.exec(text)![1]!;

it('detaches from a followed run on SIGINT; the workers finish it', async () => {
  const { prefix, configFile } = setup('detach-follow');
  const worker = start(['worker'], configFile);
  await workerReady(worker);
  const follower = start(
    ['run', 'catalog', '--file', items, '--wait', '--no-local-worker'],
    configFile,
  );
  // A deadline that includes a child's start-up: many seconds on a loaded 2-core machine.
  await until('delivery under way', () => sim.stats().requests > 5, 90_000);
  follower.child.kill('SIGINT');
  expect(await follower.exited).toBe(4);
  const runId = runIdOf(follower.stderr());
  // It detached while the run was still going, not once it was over.
  expect(await runStatus(prefix, runId)).toBe('running');
  expect(follower.stderr()).toContain(`\`ferry runs --pipeline catalog\``);
  expect(follower.stderr()).not.toContain("This process's worker stopped");
  // The latency kept the run going past the detach; the rest need not take its time.
  sim.setFaults({ latency: [0, 0] });
  await until(
    'the worker finished the run',
    async () => (await runStatus(prefix, runId)) !== 'running',
    60_000,
  );
  expect(['succeeded', 'partial']).toContain(await runStatus(prefix, runId));
}, 240_000);

it('detaches on SIGTERM with its own worker stopped, saying to start one', async () => {
  const { prefix, configFile } = setup('detach-local');
  const follower = start(['run', 'catalog', '--file', items, '--wait'], configFile);
  // A deadline that includes a child's start-up: many seconds on a loaded 2-core machine.
  await until('delivery under way', () => sim.stats().requests > 5, 90_000);
  follower.child.kill('SIGTERM');
  expect(await follower.exited).toBe(4);
  expect(follower.stderr()).toContain("This process's worker stopped");
  const runId = runIdOf(follower.stderr());
  expect(await runStatus(prefix, runId)).toBe('running');
  sim.setFaults({ latency: [0, 0] });
  const worker = start(['worker'], configFile);
  await workerReady(worker);
  await until(
    'a new worker finished the run',
    async () => (await runStatus(prefix, runId)) !== 'running',
    90_000,
  );
}, 240_000);

it('stops while planning with nothing sent and the pipeline free', async () => {
  const { prefix, configFile } = setup('detach-plan');
  // Planning reads stdin, which stays open: the run cannot get past planning.
  const child = spawn(process.execPath, [FERRY_BIN, 'run', 'catalog', '--file', '-', '--wait'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, FERRY_CONFIG: configFile, REDIS_URL: '', FERRY_PREFIX: '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.stdin.write('No.;Description\r\n');
  await until(
    'the pipeline locked for planning',
    async () => (await redis.exists(deliveryKeys(prefix).activeRun('catalog'))) === 1,
    30_000,
  );
  child.kill('SIGINT');
  const timeout = new Promise<string>((done) => setTimeout(() => done('no exit in 20 s'), 20_000));
  expect(await Promise.race([exited, timeout]), stderr).toBe(4);
  expect(stderr).toContain(
    'Stopped while planning pipeline "catalog": nothing was enqueued or sent',
  );
  expect(await redis.exists(deliveryKeys(prefix).activeRun('catalog'))).toBe(0);
  expect(sim.stats().requests).toBe(0);
}, 60_000);
