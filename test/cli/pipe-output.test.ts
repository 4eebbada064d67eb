/**
 * Every command's stdout arrives whole through a pipe, with its exit code. process.exit() used to
 * end `ferry` before a pipe had taken stdout (it takes 64 KiB at a time): `ferry plan --show-items
 * --json | jq` read 64 KiB of the document. Here the compiled binary's stdout is a pipe read
 * slowly, the document is over 5 MB, and it must parse whole.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { generateItems } from '../../bench/generate-items.js';
import { FERRY_BIN } from '../helpers/ferry-bin.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { writeConfigFile } from '../queue/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'ferry-pipe-'));
const prefix = uniquePrefix('pipe');

const file = join(dir, 'items.csv');

beforeAll(async () => {
  await generateItems(10_000, file);
});

afterAll(async () => {
  await deleteKeys(prefix);
  rmSync(dir, { recursive: true, force: true });
});

/** The caller's environment without what would override the test's config. */
function cleanEnv(configFile: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(FERRY_|REDIS_|OTEL_)/.test(name)) env[name] = value;
  }
  return { ...env, FERRY_CONFIG: configFile };
}

/** Runs the binary, its stdout read a chunk at a time with a pause after each. */
function slowlyRead(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [FERRY_BIN, ...args], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out.push(chunk);
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 5);
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) =>
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: err }),
    ),
  );
}

describe('ferry through a pipe', () => {
  it('delivers a plan of more than 5 MB whole, with exit code 1 for its rejected records', async () => {
    const config = writeConfigFile(dir, prefix, 'http://127.0.0.1:9');
    const run = await slowlyRead(
      ['plan', 'catalog', '--file', file, '--show-items', '--json'],
      cleanEnv(config),
    );
    expect(run.stdout.length, run.stderr).toBeGreaterThan(5_000_000);
    const plan = JSON.parse(run.stdout) as {
      operations: Record<string, { items: number }>;
      errors: unknown[];
      items: unknown[];
    };
    const planned = Object.values(plan.operations).reduce((n, o) => n + o.items, 0);
    expect(plan.items).toHaveLength(planned);
    expect(plan.errors.length).toBeGreaterThan(0);
    expect(run.code).toBe(1);
  }, 120_000);

  it('lists the items after the figures, as one JSON document or one line each', async () => {
    const env = cleanEnv(
      writeConfigFile(dir, prefix, 'http://127.0.0.1:9', {}, undefined, 'here.yaml'),
    );
    const args = ['plan', 'catalog', '--file', 'examples/items.csv', '--show-items'];
    const json = await ferryHere([...args, '--json'], { env });
    const plan = JSON.parse(json.stdout) as {
      operations: Record<string, { items: number }>;
      items: { operationId: string; key: string }[];
    };
    // Exactly the document JSON.stringify writes, the items last, in stage order.
    expect(json.stdout).toBe(`${JSON.stringify(plan, null, 2)}\n`);
    expect(Object.keys(plan).at(-1)).toBe('items');
    const planned = Object.values(plan.operations).reduce((n, o) => n + o.items, 0);
    expect(plan.items).toHaveLength(planned);
    expect(plan.items[0]?.operationId).toBe('categories.put');
    expect(plan.items.at(-1)?.operationId).toBe('products.prices.patch');

    const text = await ferryHere(args, { env });
    const lines = text.stdout.split('\n').filter((l) => l.startsWith('{"operationId"'));
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(plan.items);
  });

  it('ends quietly with 141 when the reader goes away (`| head`)', async () => {
    const env = cleanEnv(
      writeConfigFile(dir, prefix, 'http://127.0.0.1:9', {}, undefined, 'head.yaml'),
    );
    const child = spawn(
      process.execPath,
      [FERRY_BIN, 'plan', 'catalog', '--file', file, '--show-items', '--json'],
      { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code, err).toBe(141);
    expect(err).not.toContain('EPIPE');
  }, 120_000);
});
