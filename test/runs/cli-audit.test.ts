/**
 * What an operator does from the command line is audited as from the console: `ferry undo` and
 * `ferry dlq purge` write `{at, actor: cli:<user>, action, target}` (before, only the console's
 * actions were in the audit trail), each naming the platform of the run or dead letters it acted on.
 */
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { readAudit, recordAudit } from '../../src/runs/audit.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import {
  quietLogger,
  startCatalog,
  testConfig,
  useDeliveryHarness,
} from '../queue/delivery-fixtures.js';
import { itemRow, writeItems } from '../serve/console-fixtures.js';

const h = useDeliveryHarness('cli-audit', { seed: 3 });
const keys = () => deliveryKeys(h.prefix);
let config: FerryConfig;
let worker: DeliveryWorker;
let runId: string;

function ferry(args: string[]) {
  return ferryHere(args, {
    env: {
      PATH: process.env.PATH,
      REDIS_URL: TEST_REDIS_URL,
      FERRY_PREFIX: h.prefix,
      FERRY_BASE_URL: h.sim.url,
    },
  });
}

beforeAll(async () => {
  config = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  h.sim.setFaults({ rejectKeys: ['B2'] });
  const file = writeItems(join(h.dir, 'items.csv'), [
    itemRow('B1', '10,00'),
    itemRow('B2', '11,00'),
  ]);
  runId = (await startCatalog(h.redis, config, file)).runId;
  expect((await followRun(h.redis, keys(), runId, () => undefined)).status).toBe('partial');
  h.sim.setFaults({ rejectKeys: [] });
});

afterAll(async () => {
  await worker.close();
});

const actor = `cli:${userInfo().username}`;

it('audits ferry dlq purge with the dead letters it purged', async () => {
  const purge = await ferry(['dlq', 'purge', '--all']);
  expect(purge.code).toBe(0);
  const [entry] = await readAudit(h.redis, keys(), 1);
  // The pipeline runs on the top-level interface: the entry names the platform `default`.
  expect(entry).toMatchObject({ actor, action: 'dead-letter.purge', platform: 'default' });
  expect(entry!.target.split(',').length).toBeGreaterThan(0);
});

it('audits ferry undo with the run and its undo', async () => {
  const undo = await ferry(['undo', runId, '--json']);
  expect(undo.code).toBe(0);
  const { undoRunId } = JSON.parse(undo.stdout) as { undoRunId: string };
  await followRun(h.redis, keys(), undoRunId, () => undefined);
  const [entry] = await readAudit(h.redis, keys(), 1);
  expect(entry).toMatchObject({
    actor,
    action: 'run.undo',
    target: `${runId} -> ${undoRunId}`,
    platform: 'default',
  });
});

it("names a run's platform from its id, and none for what is not a run's", async () => {
  await recordAudit(h.redis, keys(), {
    actor,
    action: 'run.resume',
    target: 'catalog@north-20261207T175420-eb6d',
  });
  await recordAudit(h.redis, keys(), { actor, action: 'contract.pull', target: 'ab12cd' });
  const [pull, resume] = await readAudit(h.redis, keys(), 2);
  expect(resume).toMatchObject({ action: 'run.resume', platform: 'north' });
  expect(pull).not.toHaveProperty('platform');
});
