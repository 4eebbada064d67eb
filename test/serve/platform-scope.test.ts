/**
 * The console with two platforms (north, south: a simulator each) and the catalog delivering to
 * both: a token scoped to north sees and acts on north's runs, dead letters, entities, pipelines,
 * imports and audit entries only, and gets for south's the same 404 as for an unknown id; lists
 * are filtered by the scope and by `?platform=`; what every platform shares (the queues, /metrics)
 * answers a scoped token 404; a browser session keeps its token's scope; a scope naming a
 * platform the config does not have fails the config's load.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { followRun } from '../../src/runs/follow-run.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  callConsole,
  itemRow,
  listenConsole,
  OPERATOR,
  VIEWER,
  writeItems,
  type ConsoleAnswer,
} from './console-fixtures.js';
import { NORTH_OPERATOR, NORTH_VIEWER, twoPlatformConfig } from './platform-fixtures.js';

let south: RunningSimulator;
const h = useDeliveryHarness('console-platforms', { seed: 61 }, async () => {
  south = await startSimulator({ port: 0, seed: 62 });
});
let config: FerryConfig;
let worker: DeliveryWorker;
let app: FastifyInstance;
let url: string;
/** A run of each platform, and the dead letter (A200: a negative price) each left. */
const runs = { north: '', south: '' };
const dead = { north: '', south: '' };

function call(
  path: string,
  token: string | undefined,
  options: { method?: 'GET' | 'POST'; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ConsoleAnswer> {
  return callConsole(url, path, { ...options, ...(token ? { token } : {}) });
}

/** The answer of an unknown id with the id put back: the same document, word for word. */
function asUnknown(answer: ConsoleAnswer, id: string, unknown: string): unknown {
  return JSON.parse(answer.text.replaceAll(id, unknown));
}

async function deliver(pipeline: string): Promise<string> {
  const file = writeItems(join(h.dir, `${pipeline}.csv`), [
    itemRow('A100', '100,00'),
    itemRow('A200', '-12,00'),
  ]);
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline,
    source: { file },
  });
  await followRun(h.redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
  return runId;
}

beforeAll(async () => {
  config = twoPlatformConfig(h, south.url);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  runs.north = await deliver('catalog@north');
  runs.south = await deliver('catalog@south');
  ({ app, url } = await listenConsole(config, h.redis));
  for (const platform of ['north', 'south'] as const) {
    const list = await listDeadLetters(`pipeline=catalog@${platform}`, VIEWER);
    expect(list).toHaveLength(1);
    dead[platform] = list[0]!.id;
  }
}, 60_000);

afterAll(async () => {
  await app?.close();
  await worker?.close();
  await south?.close();
});

async function listDeadLetters(query: string, token: string) {
  const answer = await call(`/api/dead-letters?${query}`, token);
  expect(answer.status).toBe(200);
  return (answer.body as { entries: Array<{ id: string; pipeline: string }> }).entries;
}

async function runList(query: string, token: string): Promise<string[]> {
  const answer = await call(`/api/runs?${query}`, token);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { runs: Array<{ runId: string }> }).runs.map((r) => r.runId);
}

describe('runs', () => {
  it('lists a scoped token its platforms’ runs only; ?platform= filters', async () => {
    expect(await runList('', VIEWER)).toEqual([runs.south, runs.north]);
    expect(await runList('', NORTH_VIEWER)).toEqual([runs.north]);
    expect(await runList('platform=south', VIEWER)).toEqual([runs.south]);
    expect(await runList('platform=north', NORTH_VIEWER)).toEqual([runs.north]);
    expect(await runList('pipeline=catalog@south', NORTH_VIEWER)).toEqual([]);
    expect(await runList('pipeline=catalog@south', VIEWER)).toEqual([runs.south]);
    // Another platform's filter is a platform it does not know: 404, naming only its own.
    const other = await call('/api/runs?platform=south', NORTH_VIEWER);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('default');
    expect(asUnknown(other, 'south', 'west')).toEqual(
      (await call('/api/runs?platform=west', NORTH_VIEWER)).body,
    );
  });

  it('shows a run of its platform, and answers another’s as an unknown id', async () => {
    const own = await call(`/api/runs/${runs.north}`, NORTH_VIEWER);
    expect(own).toMatchObject({ status: 200, body: { pipeline: 'catalog@north' } });
    for (const path of ['', '/report.json', '/failures.csv']) {
      const prefix = path === '' ? '/api/runs/' : '/runs/';
      const hidden = await call(`${prefix}${runs.south}${path}`, NORTH_VIEWER);
      expect(hidden.status, path).toBe(404);
      const unknown = await call(`${prefix}r-unknown${path}`, NORTH_VIEWER);
      expect(asUnknown(hidden, runs.south, 'r-unknown'), path).toEqual(unknown.body);
    }
    expect((await call(`/api/runs/${runs.south}`, VIEWER)).status).toBe(200);
  });

  it('refuses a scoped operator every action on another platform’s run with the same 404', async () => {
    for (const action of ['cancel', 'resume', 'allow-deletes', 'allow-guard', 'undo']) {
      const path = (id: string) => `/api/runs/${id}/${action}`;
      const hidden = await call(path(runs.south), NORTH_OPERATOR, { method: 'POST' });
      const unknown = await call(path('r-unknown'), NORTH_OPERATOR, { method: 'POST' });
      expect(hidden.status, action).toBe(404);
      expect(asUnknown(hidden, runs.south, 'r-unknown'), action).toEqual(unknown.body);
    }
    // On its own platform's run the action itself answers (a finished run is not cancelled).
    const own = await call(`/api/runs/${runs.north}/cancel`, NORTH_OPERATOR, { method: 'POST' });
    expect(own.body).toMatchObject({ error: { code: 'FERRY_RUN_FINISHED' } });
  });

  it('shows the run page with its platform; another platform’s is a 404 page', async () => {
    const page = await call(`/runs/${runs.north}`, NORTH_VIEWER);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<b data-platform>north<\/b>/);
    expect((await call(`/runs/${runs.south}`, NORTH_VIEWER)).status).toBe(404);
    const list = await call('/runs', NORTH_VIEWER);
    expect(list.text).toContain(runs.north);
    expect(list.text).not.toContain(runs.south);
    const south = await call('/runs?platform=south&status=partial', VIEWER);
    expect(south.text).toContain(runs.south);
    expect(south.text).not.toContain(runs.north);
    // The selector keeps the other filters: the status stays picked.
    expect(south.text).toMatch(/<option value="south" selected>/);
    expect(south.text).toMatch(/<option value="partial" selected>/);
  });
});

describe('dead letters', () => {
  it('lists a scoped token its platforms’ only; ?platform= filters', async () => {
    const all = await listDeadLetters('', VIEWER);
    expect(all.map((e) => e.id).sort()).toEqual([dead.north, dead.south].sort());
    expect((await listDeadLetters('', NORTH_VIEWER)).map((e) => e.id)).toEqual([dead.north]);
    expect((await listDeadLetters('platform=south', VIEWER)).map((e) => e.id)).toEqual([
      dead.south,
    ]);
    expect(await listDeadLetters('pipeline=catalog@south', NORTH_VIEWER)).toEqual([]);
    expect((await listDeadLetters('key=A200', NORTH_VIEWER)).map((e) => e.id)).toEqual([
      dead.north,
    ]);
    expect((await call('/api/dead-letters?platform=south', NORTH_VIEWER)).status).toBe(404);
    const csv = await call('/dead-letters/export.csv', NORTH_VIEWER);
    expect(csv.text).toContain('catalog@north');
    expect(csv.text).not.toContain('catalog@south');
    const page = await call('/dead-letters?platform=south', VIEWER);
    expect(page.text).toContain(dead.south);
    expect(page.text).not.toContain(dead.north);
  });

  it('answers another platform’s dead letter as an unknown id, shown or acted on', async () => {
    const paths: Array<[string, 'GET' | 'POST', unknown?]> = [
      ['/api/dead-letters/ID', 'GET'],
      ['/dead-letters/ID', 'GET'],
      ['/api/dead-letters/ID/replay', 'POST', {}],
      ['/api/dead-letters/ID/purge', 'POST', {}],
      ['/api/dead-letters/replay', 'POST', { ids: ['ID'] }],
      ['/api/dead-letters/purge', 'POST', { ids: ['ID'], dryRun: true }],
    ];
    for (const [path, method, body] of paths) {
      const at = (id: string) => ({
        path: path.replace('ID', id),
        body: body && JSON.parse(JSON.stringify(body).replace('ID', id)),
      });
      const hidden = at(dead.south);
      const unknown = at('d-unknown');
      const a = await call(hidden.path, NORTH_OPERATOR, { method, body: hidden.body });
      const b = await call(unknown.path, NORTH_OPERATOR, { method, body: unknown.body });
      expect(a.status, path).toBe(404);
      expect(a.text.replaceAll(dead.south, 'd-unknown'), path).toEqual(b.text);
    }
    // A purge of all a search finds purges the token's platforms' only.
    const found = await call('/api/dead-letters/purge', NORTH_OPERATOR, {
      body: { filter: { key: 'A200' }, dryRun: true },
    });
    expect((found.body as { purged: Array<{ id: string }> }).purged.map((p) => p.id)).toEqual([
      dead.north,
    ]);
  });

  it('shows a dead letter of its platform with the platform named', async () => {
    const page = await call(`/dead-letters/${dead.north}`, NORTH_VIEWER);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<dt>Platform<\/dt>\s*<dd><b>north<\/b>/);
  });
});

describe('entities and pipelines', () => {
  it('traces an entity of its platform; another platform’s pipeline is unknown', async () => {
    const own = await call('/api/entities/catalog@north/A100', NORTH_VIEWER);
    expect(own).toMatchObject({ status: 200, body: { pipeline: 'catalog@north', key: 'A100' } });
    expect((own.body as { states: unknown[] }).states.length).toBeGreaterThan(0);
    const hidden = await call('/api/entities/catalog@south/A100', NORTH_VIEWER);
    const unknown = await call('/api/entities/catalog@west/A100', NORTH_VIEWER);
    expect(hidden.status).toBe(404);
    expect(asUnknown(hidden, 'catalog@south', 'catalog@west')).toEqual(unknown.body);
    // Its hint names only what the token sees.
    const hint = (hidden.body as { error: { message: string } }).error.message.split('. ')[1];
    expect(hint).toBe('Pipelines: catalog@north.');
    expect((await call('/api/entities/catalog@south/A100', VIEWER)).status).toBe(200);
    const page = await call('/entities?pipeline=catalog@north&key=A100', NORTH_VIEWER);
    expect(page.text).toMatch(/Platform <b>north<\/b>/);
    expect((await call('/entities?pipeline=catalog@south&key=A100', NORTH_VIEWER)).status).toBe(
      404,
    );
  });

  it('lists the pipelines of each platform; a scoped token its own', async () => {
    const names = async (query: string, token: string) =>
      ((await call(`/api/pipelines${query}`, token)).body as Array<{ name: string }>).map(
        (p) => p.name,
      );
    expect(await names('', VIEWER)).toEqual(['catalog@north', 'catalog@south', 'stores']);
    expect(await names('', NORTH_VIEWER)).toEqual(['catalog@north']);
    expect(await names('?platform=south', VIEWER)).toEqual(['catalog@south']);
    expect(await names('?platform=default', VIEWER)).toEqual(['stores']);
    const overview = await call('/', VIEWER);
    for (const platform of ['default', 'north', 'south']) {
      expect(overview.text).toContain(`data-platform="${platform}"`);
    }
    expect(overview.text).toContain(south.url);
    const scoped = await call('/', NORTH_VIEWER);
    expect(scoped.text).toContain('data-platform="north"');
    expect(scoped.text).not.toContain('catalog@south');
    expect(scoped.text).not.toContain('/queues');
    expect((await call('/pipelines/catalog@north', NORTH_VIEWER)).status).toBe(200);
    expect((await call('/pipelines/catalog@south', NORTH_VIEWER)).status).toBe(404);
  });

  it('refuses a scoped operator imports, runs and schedules of another platform with 404', async () => {
    const hidden = [
      '/api/pipelines/catalog@south/runs',
      '/api/pipelines/catalog@south/run',
      '/api/pipelines/stores/run',
      // The schedule is the file's, run on north and south: not north's alone.
      '/api/pipelines/catalog@north/schedule/pause',
    ];
    for (const path of hidden) {
      const upload = path.endsWith('/runs');
      const answer = await call(path, NORTH_OPERATOR, {
        method: 'POST',
        headers: upload ? { 'content-type': 'text/csv' } : {},
      });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toMatchObject({ error: { code: 'FERRY_NOT_FOUND' } });
    }
  });

  it("answers an import to a fan-out's own name 404 naming each platform's pipeline", async () => {
    const all = await call('/api/pipelines/catalog/runs', OPERATOR, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
    });
    expect(all.status).toBe(404);
    expect(all.text).toContain('name one (catalog@north, catalog@south)');
    // A token that sees north only is not told of south.
    const north = await call('/api/pipelines/catalog/runs', NORTH_OPERATOR, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
    });
    expect(north.status).toBe(404);
    expect(north.text).not.toContain('south');
  });

  it('imports a file into its own platform, audited with the platform', async () => {
    const file = writeItems(join(h.dir, 'import.csv'), [
      itemRow('A100', '100,00'),
      itemRow('A200', '12,00'),
      itemRow('A300', '30,00'),
    ]);
    const res = await request(`${url}/api/pipelines/catalog@north/runs?wait=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${NORTH_OPERATOR}`, 'content-type': 'text/csv' },
      body: (await import('node:fs')).readFileSync(file),
    });
    const body = (await res.body.json()) as { runId: string };
    expect(res.statusCode, JSON.stringify(body)).toBe(200);
    expect((await call(`/api/runs/${body.runId}`, NORTH_VIEWER)).body).toMatchObject({
      pipeline: 'catalog@north',
    });
    const audit = (await call('/api/audit', NORTH_VIEWER)).body as Array<{ target: string }>;
    expect(audit[0]).toMatchObject({
      actor: 'north-op',
      action: 'run.import',
      target: body.runId,
      platform: 'north',
    });
  });
});

describe('audit, shared pages and sessions', () => {
  it('lists a scoped token its platforms’ audit entries; ?platform= filters', async () => {
    // An action on each platform, by the operator of every platform.
    for (const platform of ['north', 'south'] as const) {
      const dryRun = await call(`/api/runs/${runs[platform]}/undo?dryRun=true`, OPERATOR, {
        method: 'POST',
      });
      expect(dryRun.status).toBe(200);
      const purged = await call(`/api/dead-letters/${dead[platform]}/purge`, OPERATOR, {
        body: {},
      });
      expect(purged.status).toBe(200);
    }
    const all = (await call('/api/audit', VIEWER)).body as Array<Record<string, string>>;
    expect(all.filter((e) => e.action === 'dead-letter.purge')).toEqual([
      expect.objectContaining({ target: dead.south, platform: 'south' }),
      expect.objectContaining({ target: dead.north, platform: 'north' }),
    ]);
    const north = (await call('/api/audit', NORTH_VIEWER)).body as Array<Record<string, string>>;
    expect(north.length).toBeGreaterThan(0);
    expect(north.every((e) => e.platform === 'north')).toBe(true);
    const south = (await call('/api/audit?platform=south', VIEWER)).body as Array<
      Record<string, string>
    >;
    expect(south.map((e) => e.target)).toEqual([dead.south]);
    expect((await call('/api/audit?platform=south', NORTH_VIEWER)).status).toBe(404);
    // A purged dead letter's page says what became of it, to the tokens that see its platform.
    expect((await call(`/dead-letters/${dead.south}`, VIEWER)).status).toBe(200);
    expect((await call(`/dead-letters/${dead.south}`, NORTH_VIEWER)).status).toBe(404);
    const page = await call('/audit', NORTH_VIEWER);
    expect(page.text).toContain(dead.north);
    expect(page.text).not.toContain(dead.south);
  });

  it('answers a scoped token 404 on what every platform shares', async () => {
    for (const path of ['/api/queues', '/metrics', '/queues']) {
      expect((await call(path, VIEWER)).status, path).toBe(200);
      const hidden = await call(path, NORTH_VIEWER);
      expect(hidden.status, path).toBe(404);
      expect(hidden.body, path).toMatchObject({ error: { code: 'FERRY_NOT_FOUND' } });
    }
  });

  it('keeps the token’s scope in the browser session it opens', async () => {
    const login = await request(`${url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: NORTH_VIEWER, next: '/' }).toString(),
    });
    await login.body.dump();
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const seen = await call('/api/runs', undefined, { headers: { cookie } });
    const lines = (seen.body as { runs: Array<{ runId: string; pipeline: string }> }).runs;
    expect(lines.map((r) => r.runId)).toContain(runs.north);
    expect(lines.every((r) => r.pipeline === 'catalog@north')).toBe(true);
    expect((await call(`/api/runs/${runs.south}`, undefined, { headers: { cookie } })).status).toBe(
      404,
    );
    const page = await call('/', undefined, { headers: { cookie } });
    expect(page.text).toContain('north-viewer');
    expect(page.text).toContain('(viewer, north)');
  });
});

describe('the config', () => {
  it('refuses a token scoped to a platform it does not have, naming the key and the platforms', () => {
    const file = join(h.dir, 'ferry.yaml');
    writeFileSync(
      file,
      [
        'platforms:',
        '  north: { baseUrl: "http://127.0.0.1:1", auth: { type: bearer, token: x } }',
        'serve:',
        '  tokens:',
        `    - { name: a, role: viewer, token: ${VIEWER}, platforms: [north, west] }`,
        '',
      ].join('\n'),
    );
    let error: unknown;
    try {
      loadConfig({}, file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain('serve.tokens.0.platforms.1');
    expect((error as ConfigError).message).toContain('default, north');
  });
});
