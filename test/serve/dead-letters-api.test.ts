/**
 * The console's dead letters: an item the platform refuses (a negative price) is listed (filtered
 * by pipeline and key), shown whole, and replayed by an operator with an edited payload, which
 * delivers it and is audited; a viewer may not replay.
 */
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  consoleTestConfig,
  itemRow,
  OPERATOR,
  VIEWER,
  deliverItems,
  listenConsole,
} from './console-fixtures.js';

const h = useDeliveryHarness('console-dlq', { seed: 51 });
let config: FerryConfig;
let app: FastifyInstance;
let url: string;
let worker: DeliveryWorker;

beforeAll(async () => {
  config = consoleTestConfig(h);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await deliverItems(h, config, [itemRow('A100', '100,00'), itemRow('A200', '-12,00')]);
  ({ app, url } = await listenConsole(config, h.redis));
});

afterAll(async () => {
  await app.close();
  await worker.close();
});

async function call(path: string, token: string, body?: unknown) {
  const res = await request(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

it('lists, shows and replays a dead letter with an edited payload', async () => {
  const list = await call('/api/dead-letters?pipeline=catalog&key=A200', VIEWER);
  expect(list.status).toBe(200);
  const entries = list.body.entries as Array<{ id: string; keys: string[] }>;
  expect(entries).toHaveLength(1);
  expect(entries[0]!.keys).toEqual(['A200']);
  expect((await call('/api/dead-letters?pipeline=stores', VIEWER)).body).toEqual({ entries: [] });

  const id = entries[0]!.id;
  const shown = await call(`/api/dead-letters/${id}`, VIEWER);
  expect(shown.body).toMatchObject({
    id,
    pipeline: 'catalog',
    operationId: 'products.prices.patch',
  });
  const payload = (shown.body.items as Array<{ payload: Record<string, unknown> }>)[0]!.payload;
  expect(JSON.stringify(payload)).toContain('-12.00');
  expect(JSON.stringify(shown.body)).not.toContain('dev-token');
  expect((await call('/api/dead-letters/nope', VIEWER)).status).toBe(404);

  expect((await call(`/api/dead-letters/${id}/replay`, VIEWER, {})).status).toBe(403);
  const fixed = JSON.parse(JSON.stringify(payload).replace('-12.00', '12.00')) as unknown;
  const replay = await call(`/api/dead-letters/${id}/replay`, OPERATOR, { payload: fixed });
  expect(replay.status).toBe(200);
  expect(replay.body).toMatchObject({ delivered: 1, failed: 0 });
  expect((await call('/api/dead-letters?pipeline=catalog', VIEWER)).body).toEqual({ entries: [] });
  expect((await call('/api/audit', VIEWER)).body).toEqual([
    expect.objectContaining({ actor: 'alice', action: 'dead-letter.replay-edited', target: id }),
  ]);
});
