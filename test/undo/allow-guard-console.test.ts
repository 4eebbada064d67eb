/**
 * The console and a value-guard stop, over HTTP against real Redis and the simulator: the run
 * page shows the samples (old and new prices, each key linked to its trace); with
 * serve.fourEyes the operator who started the run cannot allow it (403 FERRY_FOUR_EYES) and
 * another can, once; the allowance is in the audit trail. An operator's page of the allowed run
 * offers its undo with the dry run's counts, and the undo restores the prices.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import type { ValueGuardError } from '../../src/pipeline/guards/guard-error.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { guardedCatalog } from './guarded-catalog.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  consoleTestConfig,
  deliverItems,
  itemRow,
  listenConsole,
  OPERATOR,
  VIEWER,
  writeItems,
} from '../serve/console-fixtures.js';

const BOB = 'bob-operator-token-0123456789';
const PRODUCTS = Array.from({ length: 10 }, (_, i) => `A${i + 1}`);

const h = useDeliveryHarness('allow-guard', { seed: 8 });
let config: FerryConfig;
let worker: DeliveryWorker;
let app: Awaited<ReturnType<typeof listenConsole>>;
let stoppedId: string;
let allowedId: string;

async function call(path: string, token: string, method: 'GET' | 'POST' = 'GET') {
  const res = await request(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    text,
    body: text.startsWith('{') || text.startsWith('[') ? (JSON.parse(text) as unknown) : undefined,
  };
}

beforeAll(async () => {
  const base = consoleTestConfig(h, { fourEyes: true });
  config = {
    ...base,
    pipelines: { dir: guardedCatalog(h.dir) },
    serve: {
      ...base.serve,
      tokens: [...base.serve.tokens, { name: 'bob', role: 'operator', token: BOB }],
    },
  };
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await deliverItems(
    h,
    config,
    PRODUCTS.map((no) => itemRow(no, '25,00')),
  );
  // alice imports tonight's export, every price x100: stopped.
  const error = (await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: {
      file: writeItems(
        join(h.dir, 'poisoned.csv'),
        PRODUCTS.map((no) => itemRow(no, '2500,00')),
      ),
    },
    sourceName: 'poisoned.csv',
    trigger: 'http',
    startedBy: 'alice',
  }).catch((e: unknown) => e)) as ValueGuardError;
  stoppedId = error.details.runId as string;
  // The stopped run kept its input: the allow reads that, not a file that may be gone by then.
  rmSync(join(h.dir, 'poisoned.csv'));
  app = await listenConsole(config, h.redis);
});

afterAll(async () => {
  await app.app.close();
  await worker.close();
});

it('shows the samples with old and new values, linked to their trace', async () => {
  const page = await call(`/runs/${stoppedId}`, VIEWER);
  expect(page.status).toBe(200);
  expect(page.text).toContain('Stopped by the value guards');
  expect(page.text).toContain('25.00');
  expect(page.text).toContain('2500.00');
  expect(page.text).toContain('/entities?pipeline=catalog&key=A1"');
  expect(page.text).toContain('An operator can allow this plan once');
});

it('refuses the starter under four eyes and lets another operator allow it once', async () => {
  const requests = h.sim.stats().requests;
  const own = await call(`/api/runs/${stoppedId}/allow-guard`, OPERATOR, 'POST');
  expect(own.status).toBe(403);
  expect(own.body).toMatchObject({ error: { code: 'FERRY_FOUR_EYES' } });
  expect(h.sim.stats().requests).toBe(requests);
  // The refusal is on the page, and in the audit trail, not only in the answer.
  const refused = await call(`/runs/${stoppedId}`, VIEWER);
  expect(refused.text).toMatch(/Allow refused for alice/);
  expect(refused.text).toContain('with four eyes another operator must allow it');

  const bob = await call(`/api/runs/${stoppedId}/allow-guard`, BOB, 'POST');
  expect(bob.status).toBe(202);
  const { runId } = bob.body as { runId: string };
  allowedId = runId;
  expect(bob.body).toMatchObject({ allowedFrom: stoppedId });
  const done = await followRun(h.redis, deliveryKeys(h.prefix), runId, () => undefined);
  expect(done.status).toBe('succeeded');
  expect(JSON.stringify(h.sim.state('prices'))).toContain('"2500.00"');

  const again = await call(`/api/runs/${stoppedId}/allow-guard`, BOB, 'POST');
  expect(again.status).toBe(409);
  expect(again.body).toMatchObject({ error: { code: 'FERRY_GUARD_ALLOW' } });
  const audit = await call('/api/audit', VIEWER);
  expect(audit.body).toMatchObject([
    { actor: 'bob', action: 'run.allow-guard-refused', target: stoppedId },
    { actor: 'bob', action: 'run.allow-guard', target: `${stoppedId} -> ${runId}` },
    {
      actor: 'alice',
      action: 'run.allow-guard-refused',
      target: stoppedId,
      reason: 'FERRY_FOUR_EYES',
    },
  ]);
  const page = await call(`/runs/${stoppedId}`, VIEWER);
  expect(page.text).toContain('Allowed once by bob');
});

it("offers operators the undo of a run with its dry run's counts, and undoes it", async () => {
  const viewerPage = await call(`/runs/${allowedId}`, VIEWER);
  expect(viewerPage.text).not.toContain('Undo this run');
  const page = await call(`/runs/${allowedId}`, BOB);
  expect(page.text).toContain(
    'Undoing this run would send 10 products.prices.patch, prices restored: 10 prices in 10 requests',
  );
  expect(page.text).toContain('Undo this run (10 items)');

  const undo = await call(`/api/runs/${allowedId}/undo`, BOB, 'POST');
  expect(undo.status).toBe(202);
  const { undoRunId } = undo.body as { undoRunId: string };
  expect(undo.body).toMatchObject({
    runId: allowedId,
    operations: { 'products.prices.patch': { items: 10 } },
    skipped: [],
  });
  const done = await followRun(h.redis, deliveryKeys(h.prefix), undoRunId, () => undefined);
  expect(done.status).toBe('succeeded');
  const prices = h.sim.state('prices') as { prices: { amount: string }[] }[];
  expect(prices.map((p) => p.prices[0]!.amount)).toEqual(Array(10).fill('25.00'));
  const audit = await call('/api/audit', VIEWER);
  expect((audit.body as { action: string; target: string }[])[0]).toMatchObject({
    action: 'run.undo',
    target: `${allowedId} -> ${undoRunId}`,
  });
});

it('audits a stopped upload, names its run in the answer, and allows it from the kept input', async () => {
  const file = writeItems(
    join(h.dir, 'upload.csv'),
    PRODUCTS.map((no) => itemRow(no, '2500,00')),
  );
  const res = await request(`${app.url}/api/pipelines/catalog/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'text/csv' },
    body: readFileSync(file),
  });
  const answer = (await res.body.json()) as { runId?: string; error: { code: string } };
  expect(res.statusCode).toBe(409);
  expect(answer.error.code).toBe('FERRY_VALUE_GUARD');
  const stopped = answer.runId!;
  expect(stopped).toMatch(/^catalog-/);
  const audit = await call('/api/audit', VIEWER);
  expect((audit.body as object[])[0]).toMatchObject({
    actor: 'alice',
    action: 'run.import',
    target: stopped,
  });
  // The upload itself is gone (serve.uploadRetentionDays): the stop kept its own copy.
  rmSync(join(config.delivery.reportsDir, 'uploads'), { recursive: true, force: true });
  expect((await call('/', VIEWER)).text).toContain('badge guard_stopped');
  // No worker while the allowed run waits: the overview must not call the decided stop the
  // pipeline's last run (it did, until the allowed run ended).
  await worker.close();
  const bob = await call(`/api/runs/${stopped}/allow-guard`, BOB, 'POST');
  expect(bob.status).toBe(202);
  const { runId } = bob.body as { runId: string };
  expect((await call('/', VIEWER)).text).not.toContain('badge guard_stopped');
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  expect((await followRun(h.redis, deliveryKeys(h.prefix), runId, () => undefined)).status).toBe(
    'succeeded',
  );
  expect(JSON.stringify(h.sim.state('prices'))).toContain('"2500.00"');
});
