/**
 * Pinning the platform's description, on real HTTP and a real Redis: a node:http server on port
 * 0 serves the simulator's own description (ETag, 304 to a matching If-None-Match), or a variant
 * of it; `ferry interface pull` pins it; before each run Ferry reads it again conditionally. A
 * breaking change refuses the run with no request to the simulator and a failed run recorded; a
 * compatible one goes on its run; diff, accept --dry-run and accept say and do what they should;
 * the overview, /metrics' source and the pipeline's webhook queue hear of the change.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../src/config/load-config.js';
import { createRedis } from '../../src/redis/connection.js';
import { buildServer } from '../../src/serve/server.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { pendingContract } from '../../src/runs/contract/pin-store.js';
import { parseRun } from '../../src/runs/run-record.js';
import { openNotifyQueue } from '../../src/runs/notify/notify-queue.js';
import { startOrSkip } from '../../src/schedules/tick-run.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { quietLogger, tempDir } from '../queue/delivery-fixtures.js';

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const prefix = uniquePrefix('contract-pin');
const keys = deliveryKeys(prefix);
const dir = tempDir('contract-pin');
const redis = createRedis(TEST_REDIS_URL);
let sim: RunningSimulator;
let platform: Server;
let base: Doc;
let served = '';
const seen = { full: 0, notModified: 0 };
let configFile = '';
let csv = '';

const etagOf = (text: string) =>
  `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;

/** The categories item schema of a description (the simulator's names it by $ref or inline). */
function categoryItem(doc: Doc): Doc {
  const schema =
    doc.paths['/external/api/categories'].put.requestBody.content['application/json'].schema;
  const items = schema.items;
  if (!items.$ref) return items;
  const name = String(items.$ref).split('/').pop()!;
  return doc.components.schemas[name];
}

function serve(change?: (doc: Doc) => void): void {
  const doc = structuredClone(base);
  change?.(doc);
  served = JSON.stringify(doc, null, 2);
}

async function run(args: string[]) {
  return ferryHere(args, { env: { ...process.env, FERRY_CONFIG: configFile } });
}

/** The test's config, with an operator's token for the console. */
function consoleConfig() {
  const loaded = loadConfig({ ...process.env, FERRY_CONFIG: configFile }).config;
  return {
    ...loaded,
    serve: { ...loaded.serve, tokens: [{ name: 'op', role: 'operator' as const, token: 'op-t' }] },
  };
}

async function lastRun() {
  const [id] = await redis.zrevrange(keys.pipelineRunIndex('cats'), 0, 0);
  return parseRun(await redis.hgetall(keys.run(id!)));
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, token: 'secret' });
  base = (await (await fetch(`${sim.url}/openapi.json`)).json()) as Doc;
  serve();
  platform = createServer((req, res) => {
    const etag = etagOf(served);
    if (req.headers['if-none-match'] === etag) {
      seen.notModified += 1;
      res.writeHead(304, { etag }).end();
      return;
    }
    seen.full += 1;
    res.writeHead(200, { 'content-type': 'application/json', etag }).end(served);
  });
  await new Promise<void>((done) => platform.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/openapi.json`;
  const pipelines = join(dir.path, 'pipelines');
  csv = join(dir.path, 'cats.csv');
  writeFileSync(csv, 'id,name,pos\nC1,Shoes,1\nC2,Hats,2\n');
  mkdirSync(pipelines, { recursive: true });
  writeFileSync(
    join(pipelines, 'cats.yaml'),
    stringify({
      source: { connector: 'csv', file: csv },
      mode: 'snapshot',
      notify: [{ url: 'http://127.0.0.1:9/hook', on: ['contract_changed'] }],
      entities: [
        {
          name: 'category',
          operations: { upsert: 'categories.put' },
          key: 'id',
          fields: { name: 'name', sortIndex: { column: 'pos', type: 'integer' } },
        },
      ],
    }),
  );
  configFile = join(dir.path, 'ferry.yaml');
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix },
      interface: { baseUrl: sim.url, auth: { type: 'bearer', token: 'secret' }, openapi: url },
      pipelines: { dir: pipelines },
      delivery: { reportsDir: join(dir.path, 'reports') },
      log: { level: 'warn', format: 'json' },
    }),
  );
});

afterAll(async () => {
  await deleteKeys(prefix);
  redis.disconnect();
  await sim.close();
  await new Promise((done) => platform.close(done));
  dir.remove();
});

beforeEach(() => serve());

describe('ferry interface pull, diff, accept and the check before a run', () => {
  it('pull pins the description with its hash, source and ETag; no pin, no check', async () => {
    const unpinned = await run(['run', 'cats', '--wait', '--json']);
    expect(unpinned.code, unpinned.stderr).toBe(0);
    expect((await lastRun())?.contract).toBeUndefined();

    const pulled = await run(['interface', 'pull', '--json']);
    expect(pulled.code, pulled.stderr).toBe(0);
    const outcome = JSON.parse(pulled.stdout);
    expect(outcome.written).toBe(true);
    const pin = await redis.hgetall(keys.contractPin);
    expect(pin.sha256).toBe(createHash('sha256').update(served).digest('hex'));
    expect(pin.etag).toBe(etagOf(served));
    expect(pin.source).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/openapi\.json$/);
    expect(pin.pulledBy).toMatch(/^cli:/);
    expect(pin.text).toBe(served);
    const audit = JSON.parse((await redis.lindex(keys.audit, 0))!);
    expect(audit).toMatchObject({ action: 'contract.pull', target: pin.sha256 });
  });

  it('an unchanged description costs a 304 and the run records no change', async () => {
    const before = seen.notModified;
    const done = await run(['run', 'cats', '--wait']);
    expect(done.code, done.stderr).toBe(0);
    expect(seen.notModified).toBe(before + 1);
    const contract = (await lastRun())?.contract;
    expect(contract).toMatchObject({ changed: false, breaking: 0, nonBreaking: 0 });
    expect(await pendingContract(redis, keys)).toBeUndefined();
  });

  it('a breaking change refuses the run before anything is sent, naming its pointer', async () => {
    serve((d) => categoryItem(d).required.push('slug'));
    const requests = sim.stats().requests;
    const refused = await run(['run', 'cats', '--file', csv, '--wait', '--json']);
    expect(refused.code).toBe(2);
    const error = JSON.parse(refused.stdout).error;
    expect(error.code).toBe('FERRY_CONTRACT_BREAKING');
    expect(error.breaking).toEqual([
      expect.objectContaining({ kind: 'required_property_added', operationId: 'categories.put' }),
    ]);
    expect(error.breaking[0].path).toMatch(/\/required$/);
    expect(refused.stderr).toContain('ferry interface diff');
    expect(sim.stats().requests).toBe(requests);
    const failed = await lastRun();
    expect(failed).toMatchObject({ status: 'failed', id: error.runId });
    expect(failed?.reason).toMatch(/^FERRY_CONTRACT_BREAKING: 1 breaking change\(s\).*\/required;/);
    expect(failed?.contract).toMatchObject({ changed: true, breaking: 1 });
    expect(await pendingContract(redis, keys)).toMatchObject({ breaking: 1, nonBreaking: 0 });

    // Told once to the pipeline's webhooks, whatever the number of refused runs.
    const again = await run(['plan', 'cats', '--file', csv]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('slug');
    const queue = openNotifyQueue(redis, keys);
    try {
      const jobs = (await queue.getJobs(['waiting', 'delayed', 'active', 'failed'])).filter(
        (j) => j.data.event === 'contract_changed',
      );
      expect(jobs).toHaveLength(1);
      expect(JSON.parse(jobs[0]!.data.body)).toMatchObject({
        event: 'contract_changed',
        pipeline: 'cats',
        breaking: 1,
        command: 'ferry interface diff',
      });
    } finally {
      await queue.close();
    }

    // A schedule's tick and an HTTP import go through the same gate: a failed run each, no skip.
    const config = consoleConfig();
    const runsBefore = await redis.zcard(keys.pipelineRunIndex('cats'));
    const ticked = await startOrSkip({
      config,
      redis,
      keys,
      pipeline: 'cats',
      timing: { scheduledAt: Date.now() },
      logger: quietLogger(),
      signal: new AbortController().signal,
    });
    expect('refused' in ticked && ticked.refused.code).toBe('FERRY_CONTRACT_BREAKING');
    expect(await lastRun()).toMatchObject({ status: 'failed', trigger: 'schedule' });
    const app = await buildServer({ config, redis, logger: quietLogger() });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const answer = await fetch(`${url}/api/pipelines/cats/runs`, {
        method: 'POST',
        headers: { authorization: 'Bearer op-t', 'content-type': 'text/csv' },
        body: 'id,name,pos\nC9,Socks,9\n',
      });
      expect(answer.status).toBe(409);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
        'FERRY_CONTRACT_BREAKING',
      );
    } finally {
      await app.close();
    }
    expect(await lastRun()).toMatchObject({ status: 'failed', trigger: 'http' });
    expect(await redis.zcard(keys.pipelineRunIndex('cats'))).toBe(runsBefore + 2);
    expect(sim.stats().requests).toBe(requests);

    const diff = await run(['interface', 'diff', '--json']);
    expect(diff.code).toBe(1);
    const shown = JSON.parse(diff.stdout);
    expect(shown.breaking.map((c: { kind: string }) => c.kind)).toEqual([
      'required_property_added',
    ]);
    expect(shown.from.sha256).not.toBe(shown.to.sha256);
    const human = await run(['interface', 'diff']);
    expect(human.stdout).toContain('1 breaking change(s):');

    const pulledAgain = await run(['interface', 'pull']);
    expect(pulledAgain.code).toBe(1);
    expect(pulledAgain.stdout).toContain('Not pinned');

    const dry = await run(['interface', 'accept', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, written: false });
    expect(await redis.hget(keys.contractPin, 'sha256')).toBe(shown.from.sha256);

    const accepted = await run(['interface', 'accept']);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(await redis.hget(keys.contractPin, 'sha256')).toBe(shown.to.sha256);
    const audit = JSON.parse((await redis.lindex(keys.audit, 0))!);
    expect(audit).toMatchObject({ action: 'contract.accept', target: shown.to.sha256 });
    expect(await pendingContract(redis, keys)).toBeUndefined();
  });

  it('a compatible change is recorded on the run, which goes on', async () => {
    await run(['interface', 'accept']); // back to the base description
    serve((d) => (categoryItem(d).properties.color = { type: 'string' }));
    const requests = sim.stats().requests;
    writeFileSync(csv, 'id,name,pos\nC1,Shoes,1\nC2,Hats,3\n');
    const done = await run(['run', 'cats', '--file', csv, '--wait']);
    expect(done.code, done.stderr).toBe(0);
    expect(sim.stats().requests).toBeGreaterThan(requests);
    expect(done.stdout).toContain("the platform's description changed since it was pinned: 1");
    const recorded = await lastRun();
    const contract = recorded?.contract;
    expect(contract).toMatchObject({ changed: true, breaking: 0, nonBreaking: 1 });
    expect(contract?.changes[0]).toMatchObject({
      kind: 'property_added',
      operationId: 'categories.put',
    });
    expect(contract?.changes[0]?.path).toMatch(/\/properties\/color$/);
    expect(await pendingContract(redis, keys)).toMatchObject({ breaking: 0, nonBreaking: 1 });

    const config = consoleConfig();
    const app = await buildServer({ config, redis, logger: quietLogger() });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const auth = { authorization: 'Bearer op-t' };
      const document = (await (
        await fetch(`${url}/api/runs/${recorded!.id}`, { headers: auth })
      ).json()) as { contract?: unknown };
      expect(document.contract).toEqual(contract);
      const metrics = await (await fetch(`${url}/metrics`, { headers: auth })).text();
      expect(metrics).toContain('ferry_contract_changes{platform="default",kind="breaking"} 0');
      expect(metrics).toContain('ferry_contract_changes{platform="default",kind="non_breaking"} 1');
      const page = await (await fetch(`${url}/`, { headers: auth })).text();
      expect(page).toContain('id="contract-notice"');
      expect(page).toContain('<code>ferry interface diff</code>');
      await run(['interface', 'accept']);
      const after = await (await fetch(`${url}/metrics`, { headers: auth })).text();
      expect(after).toContain('ferry_contract_changes{platform="default",kind="non_breaking"} 0');
      expect(await (await fetch(`${url}/`, { headers: auth })).text()).not.toContain(
        'contract-notice',
      );
    } finally {
      await app.close();
    }
  });
});
