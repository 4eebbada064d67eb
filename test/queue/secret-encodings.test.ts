/**
 * A platform that echoes the credential in a refusal, in the encodings it may come back in (as it
 * is, base64, base64url, percent-encoded, inside a Basic credential), over real HTTP: neither the
 * run's report, the files written for it, the dead letters, nor anything Redis holds carries any
 * encoding of it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { runFerryHere, writeConfigFile } from './cli-process.js';
import { expectNothingOpen, tempDir } from './delivery-fixtures.js';

const TOKEN = 'sk_live/Qx+7:secret~Token=9';

/** Every form of the token a platform may echo, and that nothing Ferry keeps may hold. */
const ENCODINGS: Record<string, string> = {
  plain: TOKEN,
  base64: Buffer.from(TOKEN).toString('base64'),
  base64url: Buffer.from(TOKEN).toString('base64url'),
  urlEncoded: encodeURIComponent(TOKEN),
  formEncoded: new URLSearchParams({ t: TOKEN }).toString().slice(2),
  basic: Buffer.from(`ferry:${TOKEN}`).toString('base64'),
  basicUrl: Buffer.from(`ferry:${TOKEN}`).toString('base64url'),
};

const prefix = uniquePrefix('secretenc');
const dir = tempDir('secretenc');
let server: Server;
let redis: Redis;
let configFile: string;

beforeAll(async () => {
  // Refuses every request (422), echoing the credential it got in each encoding.
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const auth = String(req.headers.authorization ?? '');
      const token = auth.replace(/^Bearer /, '');
      const echoed = {
        base64: Buffer.from(token).toString('base64'),
        base64url: Buffer.from(token).toString('base64url'),
        url: encodeURIComponent(token),
        form: new URLSearchParams({ t: token }).toString(),
        basic: `Basic ${Buffer.from(`ferry:${token}`).toString('base64')}`,
        basicUrl: Buffer.from(`ferry:${token}`).toString('base64url'),
        plain: auth,
      };
      res.writeHead(422, {
        'content-type': 'application/json',
        'x-echo': echoed.base64,
        'www-authenticate': echoed.basic,
      });
      res.end(
        JSON.stringify({
          error: {
            code: 'VALIDATION_FAILED',
            message: `refused the request of ${echoed.base64} (${echoed.url}; ${echoed.basicUrl})`,
          },
          echoed,
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  configFile = writeConfigFile(dir.path, prefix, `http://127.0.0.1:${port}`, { attempts: 2 });
  redis = new Redis(TEST_REDIS_URL);
});

afterAll(async () => {
  redis.disconnect();
  await new Promise((resolve) => server.close(resolve));
  await deleteKeys(prefix);
  dir.remove();
  await expectNothingOpen();
});

/** Everything Redis holds under the test's prefix, as text. */
async function redisContents(): Promise<string> {
  const keys = await redis.keys(`${prefix}:*`);
  expect(keys.length).toBeGreaterThan(0);
  const parts: string[] = [];
  for (const key of keys) {
    const type = await redis.type(key);
    const read: Record<string, () => Promise<unknown>> = {
      string: () => redis.getBuffer(key),
      hash: () => redis.hgetallBuffer(key),
      list: () => redis.lrangeBuffer(key, 0, -1),
      set: () => redis.smembersBuffer(key),
      zset: () => redis.zrangeBuffer(key, '0', '-1'),
      stream: () => redis.xrange(key, '-', '+'),
    };
    const value = await read[type]?.();
    parts.push(
      key,
      JSON.stringify(value, (_k, v: unknown) => stringsOf(v)),
    );
  }
  return parts.join('\n');
}

/** Buffers (as ioredis gives them) as their text, so the check reads what Redis holds. */
function stringsOf(value: unknown): unknown {
  const buffer = value as { type?: string; data?: number[] } | null;
  if (buffer?.type === 'Buffer' && Array.isArray(buffer.data)) {
    return Buffer.from(buffer.data).toString('latin1');
  }
  return value;
}

function filesUnder(path: string): string {
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

function expectNoEncoding(where: string, text: string): void {
  for (const [name, form] of Object.entries(ENCODINGS)) {
    expect(text.includes(form), `${where} holds the token ${name}`).toBe(false);
  }
}

describe('a credential echoed by the platform', () => {
  it('reaches no dead letter, report or Redis key in any encoding', async () => {
    const file = join(dir.path, 'stores.csv');
    writeFileSync(
      file,
      'Store No.,Name,Address,Post Code,City,Country,Phone,E-Mail,Web URL,Open\n' +
        'S001,Oslo,Storgata 1,0150,Oslo,NO,+47 1,a@example.no,https://example.no/1,Yes\n' +
        'S002,Bergen,Torget 2,5014,Bergen,NO,+47 2,b@example.no,https://example.no/2,Yes\n',
    );
    const env = { FERRY_TOKEN: TOKEN };
    const run = await runFerryHere(
      ['run', 'stores', '--file', file, '--wait', '--json'],
      configFile,
      env,
    );
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(run.stdout) as { deadLettered: number };
    expect(report.deadLettered).toBe(2);
    const list = await runFerryHere(['dlq', 'list', '--json'], configFile, env);
    const entries = JSON.parse(list.stdout) as { id: string }[];
    expect(entries).toHaveLength(2);
    const shown = await runFerryHere(['dlq', 'show', entries[0]!.id, '--json'], configFile, env);
    expect(shown.stdout).toContain('[redacted]');

    expectNoEncoding('the run document', run.stdout + run.stderr);
    expectNoEncoding('the dead letters', list.stdout + shown.stdout);
    expectNoEncoding('the report files', filesUnder(join(dir.path, 'reports')));
    expectNoEncoding('Redis', await redisContents());
  });
});
