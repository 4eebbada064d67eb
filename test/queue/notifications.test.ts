/**
 * Webhooks (`notify:` in a pipeline file): a run's ending POSTs a small signed summary to the
 * webhooks that asked for that event, through a BullMQ queue that retries a receiver that fails,
 * against a real node:http receiver, real Redis and the simulator.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateItems } from '../../bench/generate-items.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { startNotifyWorker } from '../../src/runs/notify/notify-worker.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { until } from '../helpers/until.js';
import { quietLogger, testConfig, useDeliveryHarness } from './delivery-fixtures.js';

const SECRET = 'webhook-secret-0123456789';

interface Received {
  path: string;
  event: string;
  signature: string;
  body: string;
}
const received: Received[] = [];
let answers: Record<string, number[]> = {};
let receiver: Server;
let hooksUrl: string;

const h = useDeliveryHarness('notify', { seed: 41 }, async (harness) => {
  await generateItems(40, join(harness.dir, 'items.csv'), 2);
});

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        event: String(req.headers['ferry-event']),
        signature: String(req.headers['ferry-signature']),
        body,
      });
      res.writeHead(answers[req.url ?? '']?.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hooksUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => await new Promise((resolve) => receiver.close(resolve)));

function setup(): FerryConfig {
  const dir = join(h.dir, 'pipelines');
  mkdirSync(dir, { recursive: true });
  const catalog = parse(
    readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8'),
  ) as Record<string, Record<string, unknown>>;
  const file = {
    ...catalog,
    source: { ...catalog.source, file: join(h.dir, 'items.csv') },
    notify: [
      { url: `${hooksUrl}/ops`, on: ['succeeded', 'guard_stopped'] },
      { url: `${hooksUrl}/flaky`, on: ['succeeded'] },
      { url: `${hooksUrl}/never`, on: ['dead_letters'] },
    ],
  };
  writeFileSync(join(dir, 'nightly.yaml'), stringify(file));
  const base = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'), { bundleSize: 10 });
  return {
    ...base,
    pipelines: { ...base.pipelines, dir },
    notifications: { ...base.notifications, secret: SECRET },
  };
}

function verified(r: Received): boolean {
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(r.signature) ?? [];
  return v1 === createHmac('sha256', SECRET).update(`${t}.${r.body}`).digest('hex');
}

it('tells the webhooks that asked, signed, retrying one that failed; the guard stop too', async () => {
  const config = setup();
  const logger = quietLogger();
  answers = { '/hooks/flaky': [500] };
  const delivery = await startDeliveryWorker({ config, logger });
  const notifier = startNotifyWorker({ config, logger });
  try {
    const { runId } = await startRun({ config, redis: h.redis, logger, pipeline: 'nightly' });
    await followRun(h.redis, deliveryKeys(h.prefix), runId, () => undefined);
    await until(
      'both webhooks told',
      () => received.filter((r) => r.event === 'succeeded').length >= 3,
    );
    const ops = received.find((r) => r.path === '/hooks/ops')!;
    expect(ops.event).toBe('succeeded');
    expect(verified(ops)).toBe(true);
    expect(JSON.parse(ops.body)).toMatchObject({
      event: 'succeeded',
      pipeline: 'nightly',
      runId,
      status: 'succeeded',
      trigger: 'cli',
      items: { failed: 0 },
      deadLetters: 0,
    });
    // The flaky one answered 500 first, and was called again.
    expect(received.filter((r) => r.path === '/hooks/flaky').length).toBe(2);
    expect(received.some((r) => r.path === '/hooks/never')).toBe(false);
    expect(received.some((r) => r.body.includes(SECRET) || r.body.includes('dev-token'))).toBe(
      false,
    );

    // Tonight's export lost most of its rows: the mass-delete guard stops the run.
    const partial = join(h.dir, 'partial.csv');
    const lines = readFileSync(join(h.dir, 'items.csv'), 'latin1').split('\r\n');
    writeFileSync(partial, lines.slice(0, 6).join('\r\n') + '\r\n', 'latin1');
    await expect(
      startRun({ config, redis: h.redis, logger, pipeline: 'nightly', source: { file: partial } }),
    ).rejects.toMatchObject({ code: 'FERRY_MASS_DELETE_GUARD' });
    await until('the guard stop told', () => received.some((r) => r.event === 'guard_stopped'));
    const guard = received.find((r) => r.event === 'guard_stopped')!;
    expect(guard.path).toBe('/hooks/ops');
    expect(verified(guard)).toBe(true);
    expect(JSON.parse(guard.body)).toMatchObject({ event: 'guard_stopped', pipeline: 'nightly' });
  } finally {
    await notifier.close();
    await delivery.close();
  }
});
