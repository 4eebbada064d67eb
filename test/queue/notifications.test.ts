/**
 * Webhooks (`notify:` in a pipeline file): a run's ending POSTs a small signed summary to the
 * webhooks that asked for that event, through a BullMQ queue that retries a receiver that fails,
 * against a real node:http receiver, real Redis and the simulator; and a run forecast to end after
 * its pipeline's `window` tells `late`, once, while it goes on.
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
import { cancelRun } from '../../src/queue/cancel-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { loadRun } from '../../src/runs/run-report.js';
import { notifyIfLate } from '../../src/runs/notify/notify-run.js';
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

/** config/pipelines/catalog.yaml as pipeline `name` on `items`, with `more` keys. */
function writeCatalog(name: string, items: string, more: Record<string, unknown>): void {
  const dir = join(h.dir, 'pipelines');
  mkdirSync(dir, { recursive: true });
  const catalog = parse(
    readFileSync(join(PROJECT_ROOT, 'config/pipelines/catalog.yaml'), 'utf8'),
  ) as Record<string, Record<string, unknown>>;
  const file = { ...catalog, source: { ...catalog.source, file: join(h.dir, items) }, ...more };
  writeFileSync(join(dir, `${name}.yaml`), stringify(file));
}

function setup(): FerryConfig {
  const dir = join(h.dir, 'pipelines');
  writeCatalog('nightly', 'items.csv', {
    notify: [
      { url: `${hooksUrl}/ops`, on: ['succeeded', 'guard_stopped'] },
      { url: `${hooksUrl}/flaky`, on: ['succeeded'] },
      { url: `${hooksUrl}/never`, on: ['dead_letters'] },
    ],
  });
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

it('tells `late` once, as soon as the forecast passes the window, while the run goes on', async () => {
  const config = setup();
  const logger = quietLogger();
  const keys = deliveryKeys(h.prefix);
  // The window ends at the next minute at least 45 s away: 45 to 105 s from now, in UTC.
  const end = Math.ceil((Date.now() + 45_000) / 60_000) * 60_000;
  const endsAt = new Date(end).toISOString().slice(11, 16);
  // ~640 requests at 4 a second at most: 160 s and more, past the window whatever the minute.
  await generateItems(600, join(h.dir, 'many-items.csv'), 3);
  writeCatalog('overnight', 'many-items.csv', {
    window: { endsAt, tz: 'UTC' },
    notify: [
      { url: `${hooksUrl}/late`, on: ['late'] },
      { url: `${hooksUrl}/ended`, on: ['succeeded', 'failed'] },
    ],
  });
  h.sim.setFaults({ rateLimit: 4, rateLimitHeaders: 'x' });
  const delivery = await startDeliveryWorker({ config, logger });
  const notifier = startNotifyWorker({ config, logger });
  try {
    const { runId } = await startRun({ config, redis: h.redis, logger, pipeline: 'overnight' });
    await until('late told', () => received.some((r) => r.event === 'late'), 60_000);
    // Told by the forecast, before the window's end came.
    expect(Date.now()).toBeLessThan(end);
    expect((await loadRun(h.redis, keys, runId)).status).toBe('running');
    const late = received.find((r) => r.event === 'late')!;
    expect(late.path).toBe('/hooks/late');
    expect(verified(late)).toBe(true);
    const body = JSON.parse(late.body) as {
      forecast: { remainingRequests: number; requestsPerSecond: number; finishAt: string };
      window: { endsAt: string; tz: string; end: string };
    };
    expect(body).toMatchObject({ event: 'late', pipeline: 'overnight', runId, status: 'running' });
    expect(body.window).toEqual({ endsAt, tz: 'UTC', end: new Date(end).toISOString() });
    expect(body.forecast.requestsPerSecond).toBeGreaterThan(0);
    expect(body.forecast.requestsPerSecond).toBeLessThanOrEqual(4.5);
    expect(Date.parse(body.forecast.finishAt)).toBeGreaterThan(end);

    // Asked again (as every worker's housekeeping does, every 2 s), the run was told already.
    const ctx = { config, redis: h.redis, keys, logger };
    expect(await notifyIfLate(ctx, runId, Date.now())).toBe(false);
    const cancelled = await cancelRun({
      redis: h.redis,
      keys,
      notify: ctx,
      reportsDir: h.dir,
      runId,
    });
    expect(cancelled.status).toBe('cancelled');
    await until('the cancel told', () => received.some((r) => r.path === '/hooks/ended'));
    expect(received.filter((r) => r.event === 'late')).toHaveLength(1);
  } finally {
    h.sim.setFaults({ rateLimit: 0, rateLimitHeaders: 'none' });
    await notifier.close();
    await delivery.close();
  }
});
