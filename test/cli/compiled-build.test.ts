/**
 * The compiled `ferry` (what `npx ferry`, `npm run demo` and the image run): tsconfig.build.json
 * compiled afresh, so a stale dist/ cannot hide a missing module, then run from another directory,
 * where the project's files (config, pipelines, the interface's listings) must still be found.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const run = promisify(execFile);
const prefix = uniquePrefix('compiled');
// Inside the project, as dist/ is: the compiled code finds node_modules and package.json above it.
const outDir = mkdtempSync(resolve(PROJECT_ROOT, '.cache/compiled-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'ferry-cwd-'));

async function ferry(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [join(outDir, 'src/cli/bin.js'), ...args], {
      cwd: elsewhere,
      env: { ...process.env, REDIS_URL: TEST_REDIS_URL, FERRY_PREFIX: prefix },
    });
    return { code: 0, ...r };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  const tsc = resolve(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
  await run(process.execPath, [
    tsc,
    '-p',
    resolve(PROJECT_ROOT, 'tsconfig.build.json'),
    '--outDir',
    outDir,
    '--tsBuildInfoFile',
    join(outDir, '.tsbuildinfo'),
  ]);
}, 180_000);

afterAll(async () => {
  rmSync(outDir, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
  await deleteKeys(prefix);
});

describe('the compiled ferry', () => {
  it('lists the commands', async () => {
    const r = await ferry(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: ferry <command>');
  });

  it('lists the 31 operations of the interface', async () => {
    const r = await ferry(['operations', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(31);
  });

  it("checks the project's configuration from another directory", async () => {
    const r = await ferry(['config', 'check']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(resolve(PROJECT_ROOT, 'config/default.yaml'));
  });

  it('plans a pipeline from its file in config/pipelines', async () => {
    const file = resolve(PROJECT_ROOT, 'examples/items.csv');
    const r = await ferry(['plan', 'catalog', '--file', file, '--json']);
    expect(r.code, r.stderr).toBe(1); // examples/items.csv has rejected records
    expect(JSON.parse(r.stdout)).toMatchObject({ pipeline: 'catalog' });
  });
});
