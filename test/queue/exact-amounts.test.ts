/**
 * An amount of 20 significant digits, which a double cannot carry, through everything that parses
 * a payload and writes it again, on real HTTP and a real Redis: a node:http server on port 0 plays
 * the platform of strict-amounts-3.0.yaml (campaign values are JSON numbers) and refuses the
 * campaign C2 while told to. The refused batch is bisected, the item dead-lettered, shown,
 * exported and replayed (as it was, and edited): every body that reaches the platform, and every
 * view of the dead letter, carries the number digit for digit.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config/load-config.js';
import { buildServer } from '../../src/serve/index.js';
import { startDeliveryWorker } from '../../src/queue/worker/delivery-worker.js';
import { STRICT, STRICT_PIPELINE } from '../pipeline/strict-contract.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL, deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { sendJson, startTestServer, type TestServer } from '../interface/client-test-server.js';
import { expectNothingOpen, quietLogger, tempDir } from './delivery-fixtures.js';

const AMOUNT = '123456789012345678.91'; // 20 digits: as a double, 123456789012345680
const prefix = uniquePrefix('exact-amounts');
const dir = tempDir('exact-amounts');
let platform: TestServer;
let configFile = '';
let refuse = true;
/** The bodies of the campaign writes the platform received, in order. */
const bodies: string[] = [];

const ferry = (args: string[]) =>
  ferryHere(args, { env: { ...process.env, FERRY_CONFIG: configFile } });

/** The campaign C2 as it stands in a body, its value as written. */
const c2 = new RegExp(`"externalId":"C2"[^}]*"value":${AMOUNT.replace('.', '\\.')}[,}]`);

beforeAll(async () => {
  platform = await startTestServer((req, res) => {
    if (req.url === '/external/api/campaigns') bodies.push(req.body);
    if (refuse && req.body.includes('"C2"')) {
      sendJson(res, 422, { error: { code: 'INVALID', message: 'refused' } });
    } else sendJson(res, 200, {});
  });
  const pipelines = join(dir.path, 'pipelines');
  mkdirSync(pipelines);
  writeFileSync(
    join(pipelines, 'campaigns.yaml'),
    stringify({ ...STRICT_PIPELINE, entities: [STRICT_PIPELINE.entities[1]] }),
  );
  configFile = join(dir.path, 'ferry.yaml');
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix },
      interface: {
        baseUrl: platform.url,
        auth: { type: 'bearer', token: 'dev-token' },
        openapi: STRICT,
      },
      pipelines: { dir: pipelines },
      delivery: { concurrency: 1, backoff: { baseMs: 20, capMs: 200 }, reportsDir: dir.path },
      log: { level: 'warn', format: 'json' },
    }),
  );
});

afterAll(async () => {
  await platform.close();
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

describe('a 20-digit amount keeps its digits', () => {
  let id = '';

  it('through the bisection of a refused batch, into the dead letter', async () => {
    const file = join(dir.path, 'export.csv');
    writeFileSync(
      file,
      [
        'campaign,campaign name,type,amount',
        'C1,Spring,fixed,10.50',
        `C2,Summer,fixed,${AMOUNT}`,
        'C3,Autumn,fixed,0.07',
        'C4,Winter,percent,12',
      ].join('\n') + '\n',
    );
    const run = await ferry(['run', 'campaigns', '--file', file, '--wait', '--json']);
    expect(run.code, run.stderr).toBe(1); // one item dead-lettered
    // The batch of four, then its parts: C2 in each one that holds it, as written.
    const holding = bodies.filter((b) => b.includes('"C2"'));
    expect(holding.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(bodies[0]!)).toHaveLength(4);
    for (const body of holding) expect(body).toMatch(c2);
    expect(holding.at(-1)).toMatch(new RegExp(`^\\[\\{[^\\]]*"externalId":"C2"[^\\]]*\\}\\]$`));

    const list = await ferry(['dlq', 'list', '--json']);
    const entries = JSON.parse(list.stdout) as { id: string }[];
    expect(entries).toHaveLength(1);
    id = entries[0]!.id;
    const shown = await ferry(['dlq', 'show', id, '--json']);
    expect(shown.stdout).toContain(`"value": ${AMOUNT}`);
    expect((await ferry(['dlq', 'show', id])).stdout).toMatch(c2);
    const csv = join(dir.path, 'dead.csv');
    expect((await ferry(['dlq', 'export', '--csv', csv])).code).toBe(0);
    expect(readFileSync(csv, 'utf8')).toContain(`""value"":${AMOUNT}`);
  });

  it('through a replay, to the byte', async () => {
    refuse = false;
    bodies.length = 0;
    const replay = await ferry(['dlq', 'replay', id]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatch(c2);
    expect(bodies[0]).toContain(`"value":${AMOUNT}`);
  });

  it('through an edited replay whose file types the amount with 20 digits', async () => {
    refuse = true;
    bodies.length = 0;
    const file = join(dir.path, 'again.csv');
    writeFileSync(
      file,
      [
        'campaign,campaign name,type,amount',
        'C1,Spring,fixed,10.50',
        `C2,Summer sale,fixed,${AMOUNT.replace('91', '92')}`,
        'C3,Autumn,fixed,0.07',
        'C4,Winter,percent,12',
      ].join('\n') + '\n',
    );
    expect((await ferry(['run', 'campaigns', '--file', file, '--wait'])).code).toBe(1);
    const [entry] = JSON.parse((await ferry(['dlq', 'list', '--json'])).stdout) as {
      id: string;
    }[];
    refuse = false;
    bodies.length = 0;
    const edits = join(dir.path, 'edits.json');
    writeFileSync(
      edits,
      `{"C2": {"externalId":"C2","name":"Summer","adjustmentType":"fixed","value":${AMOUNT}}}`,
    );
    const replay = await ferry(['dlq', 'replay', entry!.id, '--payloads', edits]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(bodies).toEqual([
      `[{"externalId":"C2","name":"Summer","adjustmentType":"fixed","value":${AMOUNT}}]`,
    ]);
  });

  it("through an edit typed in the console's page, sent to its API as typed", async () => {
    refuse = true;
    const file = join(dir.path, 'console.csv');
    writeFileSync(
      file,
      ['campaign,campaign name,type,amount', `C2,Console,fixed,${AMOUNT.replace('91', '93')}`]
        .join('\n')
        .concat('\n'),
    );
    expect((await ferry(['run', 'campaigns', '--file', file, '--wait'])).code).toBe(1);
    const [entry] = JSON.parse((await ferry(['dlq', 'list', '--json'])).stdout) as {
      id: string;
    }[];
    refuse = false;
    bodies.length = 0;
    const { config } = loadConfig({ FERRY_CONFIG: configFile }, configFile);
    const operator = 'operator-token-0123456789';
    const redis = new Redis(TEST_REDIS_URL);
    // The console's replay is delivered by the installation's workers.
    const worker = await startDeliveryWorker({ config, logger: quietLogger() });
    const app = await buildServer({
      config: {
        ...config,
        serve: { ...config.serve, tokens: [{ name: 'alice', role: 'operator', token: operator }] },
      },
      redis,
      logger: quietLogger(),
    });
    try {
      // An edit the described schema refuses is refused before anything is sent, its number's
      // rule checked on its 21 digits (0.001 off a multiple of 0.01, which a double cannot see).
      const refused = await app.inject({
        method: 'POST',
        url: `/api/dead-letters/${entry!.id}/replay`,
        headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
        payload: `{"payload": {"externalId":"C2","name":"Console","adjustmentType":"flat","value":${AMOUNT}1}}`,
      });
      expect(refused.statusCode).toBe(400);
      const message = (refused.json() as { error: { message: string } }).error.message;
      expect(message).toContain("does not fit the platform's request schema");
      expect(message).toMatch(/\/adjustmentType: .*percent, fixed/);
      expect(message).toMatch(/\/value: .*0\.01/);
      expect(bodies).toEqual([]);
      // What the page's script sends: the textarea's text inside {"payload": ...}, not re-encoded.
      const typed = `{"externalId":"C2","name":"Console","adjustmentType":"fixed","value":${AMOUNT}}`;
      const replay = await app.inject({
        method: 'POST',
        url: `/api/dead-letters/${entry!.id}/replay`,
        headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
        payload: `{"payload": ${typed}}`,
      });
      expect(replay.statusCode, replay.body).toBe(200);
      expect(bodies).toEqual([`[${typed}]`]);
      const broken = await app.inject({
        method: 'POST',
        url: `/api/dead-letters/${entry!.id}/replay`,
        headers: { authorization: `Bearer ${operator}`, 'content-type': 'application/json' },
        payload: '{"payload": {"value": 1.2.3}}',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toMatchObject({ error: { code: 'FERRY_BAD_REQUEST' } });
    } finally {
      await app.close();
      await worker.close();
      redis.disconnect();
    }
  });
});
