/**
 * Redis restarted empty in the middle of a run (a lost volume, a failover to an empty replica):
 * a private redis-server is stopped while `ferry run --wait` follows a run that a `ferry worker`
 * delivers, and started again on the same port with nothing in it. The waiting CLI ends with its
 * own exit code and says what happened; the worker says it once; `ferry status` shows it; the
 * next run stops before resending the catalog until `--resend-all` is given once.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generateItems } from '../../bench/generate-items.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { startRedisServer, type PrivateRedis } from '../helpers/redis-server.js';
import { uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import {
  runFerryHere,
  spawnFerry,
  workerReady,
  writeConfigFile,
  type FerryProcess,
} from './cli-process.js';
import { expectNothingOpen, tempDir } from './delivery-fixtures.js';

const dir = tempDir('data-loss');
const items = join(dir.path, 'items.csv');
let sim: RunningSimulator;
let redis: PrivateRedis | undefined;
const processes: FerryProcess[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 11 });
  sim.setFaults({ latency: [10, 20] });
  await generateItems(300, items, 4);
  redis = await startRedisServer();
});

afterAll(async () => {
  for (const p of processes) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  }
  await redis?.stop();
  await sim.close();
  dir.remove();
  await expectNothingOpen();
});

const LOSS_LOG = 'REDIS LOST ITS DATA';

it('is noticed by the waiting CLI, the worker and `ferry status`, and the next run stops before resending', async () => {
  const configFile = writeConfigFile(dir.path, uniquePrefix('loss'), sim.url, {}, redis!.url);
  const worker = spawnFerry(['worker'], configFile);
  processes.push(worker);
  await workerReady(worker);

  const follower = spawnFerry(
    ['run', 'catalog', '--file', items, '--wait', '--no-local-worker'],
    configFile,
  );
  processes.push(follower);
  // A deadline that includes a child's start-up: many seconds on a loaded 2-core machine.
  await until('some of the run delivered', () => sim.stats().requests > 40, 90_000);

  // Redis comes back on the same port with nothing in it.
  const port = redis!.port;
  await redis!.stop();
  redis = await startRedisServer([], port);

  expect(await follower.exited).toBe(3);
  expect(follower.stderr()).toMatch(/Redis lost its data while run catalog-\S+ was in progress/);

  await until('the worker says it', () => worker.stderr().includes(LOSS_LOG), 15_000);
  const status = await runFerryHere(['status', '--json'], configFile);
  expect(status.code).toBe(0);
  const { dataLoss } = JSON.parse(status.stdout) as {
    dataLoss?: { detectedAt: number; detectedBy: string; count: number; resent: string[] };
  };
  expect(dataLoss).toMatchObject({ count: 1, resent: [] });
  expect(dataLoss!.detectedBy).toMatch(/:\d+$/);
  const text = await runFerryHere(['status'], configFile);
  expect(text.stdout).toContain('REDIS LOST ITS DATA: noticed');
  expect(text.stdout).toContain('--resend-all');

  const requestsBefore = sim.stats().requests;
  const stopped = await runFerryHere(['run', 'catalog', '--file', items], configFile);
  expect(stopped.code).toBe(1);
  expect(stopped.stderr).toMatch(
    /this run would send all \d+ item\(s\) \(\d+ request\(s\)\) as new.*Nothing was sent/s,
  );
  expect(stopped.stderr).toContain('--resend-all');

  const resent = await runFerryHere(
    ['run', 'catalog', '--file', items, '--wait', '--no-local-worker', '--resend-all', '--json'],
    configFile,
  );
  // Exit 1 and `partial` only for the generated file's rejectable records: every item delivered.
  const report = JSON.parse(resent.stdout) as {
    status: string;
    rejected: number;
    operations: Record<string, { planned: number; delivered: number }>;
  };
  expect([resent.code, report.status]).toEqual([
    report.rejected > 0 ? 1 : 0,
    report.rejected > 0 ? 'partial' : 'succeeded',
  ]);
  for (const op of Object.values(report.operations)) expect(op.delivered).toBe(op.planned);
  expect(sim.stats().requests).toBeGreaterThan(requestsBefore);

  // Chosen once: the next run goes on as usual (nothing changed, nothing to send).
  const requestsAfter = sim.stats().requests;
  const unchanged = await runFerryHere(['run', 'catalog', '--file', items, '--json'], configFile);
  expect(unchanged.stderr).not.toContain('FERRY_STATE_LOST');
  expect((JSON.parse(unchanged.stdout) as { status: string }).status).not.toBe('failed');
  expect(sim.stats().requests).toBe(requestsAfter);
  expect(worker.stderr().split(LOSS_LOG).length - 1).toBe(1);

  worker.child.kill('SIGTERM');
  expect(await worker.exited).toBe(0);
}, 240_000);
