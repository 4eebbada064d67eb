/** `ferry call` against the simulator: as a child process (the real binary) and in-process. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';

const TOKEN = 'cli-token-5';
let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, listing: 'A', token: TOKEN, seed: 3 });
  dir = mkdtempSync(join(tmpdir(), 'ferry-call-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    FERRY_BASE_URL: sim.url,
    FERRY_TOKEN: TOKEN,
    FERRY_LISTING: 'A',
    FERRY_LOG_LEVEL: 'warn',
    ...extra,
  };
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** The `ferry` binary in a child process. */
async function ferry(args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> {
  return await new Promise((done) => {
    execFile(
      process.execPath,
      [resolve(PROJECT_ROOT, 'src/cli/ferry.js'), ...args],
      { cwd: PROJECT_ROOT, env: env(extraEnv) },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        done({ code, stdout, stderr });
      },
    );
  });
}

/** `ferry` in this process, its output captured. */
async function ferryHere(args: string[], extraEnv: Record<string, string> = {}): Promise<Outcome> {
  const capture = () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, next) {
        chunks.push(chunk.toString('utf8'));
        next();
      },
    });
    return { stream, text: () => chunks.join('') };
  };
  const out = capture();
  const err = capture();
  const code = await main(args, { stdout: out.stream, stderr: err.stream, env: env(extraEnv) });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe('ferry call (child process)', () => {
  it('succeeds with exit 0 and one JSON document {status, headers, body}', async () => {
    const body = JSON.stringify([
      {
        externalId: 'cli-1',
        name: 'Bike',
        vendor: 'Acme',
        handle: 'bike',
        active: true,
        categoryExternalIds: [],
      },
    ]);
    const res = await ferry([
      'call',
      'products.put',
      '--body',
      body,
      '--idempotency-key',
      'cli-k1',
      '--json',
    ]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout) as { status: number; headers: object; body: unknown };
    expect(doc.status).toBe(200);
    expect(doc.headers).toHaveProperty('content-type');
    expect(sim.state('products').map((p) => (p as { externalId: string }).externalId)).toContain(
      'cli-1',
    );
    expect(sim.requests().at(-1)?.idempotencyKey).toBe('cli-k1');
  });
});

describe('ferry call (in process)', () => {
  it('exits 1 naming the 401 when FERRY_TOKEN is wrong', async () => {
    const res = await ferryHere(['call', 'orders.get', '--json'], {
      FERRY_TOKEN: 'wrong-token-0',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('401');
    expect(res.stderr).not.toContain('wrong-token-0');
    const doc = JSON.parse(res.stdout) as { status: number; error: { code: string } };
    expect(doc.status).toBe(401);
    expect(doc.error.code).toBe('FERRY_HTTP_AUTH');
  });

  it('prints a status line and the body without --json', async () => {
    await ferryHere(['call', 'discountCodes.put', '--body', '[{"externalId":"D1"}]']);
    const res = await ferryHere([
      'call',
      'discountCodes.campaign.put',
      '--path',
      'discountCodeExternalId=D1',
      '--body',
      '{"campaignExternalId":"c9"}',
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toBe('HTTP 200 OK');
    expect(res.stdout).toContain('"campaignExternalId": "c9"');
  });

  it('sends repeated --query values and reads --body from a file', async () => {
    const file = join(dir, 'users.json');
    writeFileSync(file, JSON.stringify([{ externalId: 'u7', email: 'u7@example.com' }]));
    const put = await ferryHere(['call', 'users.put', '--body', `@${file}`, '--json']);
    expect(put.code).toBe(0);
    const res = await ferryHere([
      'call',
      'orders.get',
      '--query',
      'page=2',
      '--query',
      'pageSize=3',
      '--json',
    ]);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).body).toMatchObject({ page: 2, pageSize: 3 });
  });

  it('exits 1 with the status, body and error of a refused call', async () => {
    const res = await ferryHere([
      'call',
      'products.prices.patch',
      '--path',
      'productId=missing',
      '--body',
      '{"prices":[{"amount":"1.00","currency":"NOK"}]}',
      '--json',
    ]);
    expect(res.code).toBe(1);
    const doc = JSON.parse(res.stdout) as {
      status: number;
      body: unknown;
      error: { code: string };
    };
    expect(doc.status).toBe(404);
    expect(doc.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(doc.error.code).toBe('FERRY_HTTP_PERMANENT');
  });

  it('exits 2 for an operation outside the listing, without a request', async () => {
    const before = sim.stats().requests;
    const res = await ferryHere(['call', 'products.get', '--json'], { FERRY_LISTING: 'B' });
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout).error.code).toBe('FERRY_OPERATION_NOT_IN_LISTING');
    expect(res.stderr).toContain('listing B');
    expect(sim.stats().requests).toBe(before);
  });

  it('exits 2 for a body file that is not JSON, naming the file and the line', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '[\n  {"externalId": "a"},\n  {"externalId": }\n]');
    const res = await ferryHere(['call', 'products.put', '--body', `@${file}`]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(file);
    expect(res.stderr).toContain('line 3, column 18');
  });

  it('exits 2 for a malformed --path and for a missing path parameter', async () => {
    const bad = await ferryHere([
      'call',
      'products.prices.patch',
      '--path',
      'productId',
      '--body',
      '{}',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--path expects k=v');
    const missing = await ferryHere(['call', 'products.prices.patch', '--body', '{}']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('productId');
  });
});
