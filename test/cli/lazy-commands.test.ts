/**
 * `ferry --help` loads no command and none of the packages behind them (start-up in
 * bench/startup.ts); a command loads what it needs when it runs.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

const HEAVY = ['bullmq', 'ioredis', 'undici', 'fastify', 'zod', 'pino', 'yaml', 'prom-client'];

/** The packages `ferry <args>` loads, as the report-packages hook prints them. */
function packagesLoadedBy(args: string[]): string[] {
  const child = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      resolve(PROJECT_ROOT, 'test/cli/helpers/report-packages.mjs'),
      resolve(PROJECT_ROOT, 'src/cli/ferry.js'),
      ...args,
    ],
    {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
      env: { ...process.env, REDIS_URL: 'redis://127.0.0.1:1' },
    },
  );
  return [...child.stderr.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1]!);
}

describe('commands load lazily', () => {
  it('ferry --help loads none of the heavy packages', () => {
    const loaded = packagesLoadedBy(['--help']);
    expect(loaded.filter((p) => HEAVY.includes(p))).toEqual([]);
  });

  it('a command loads what it runs with', () => {
    // It fails (no Redis on port 1) after loading the queue's packages.
    expect(packagesLoadedBy(['status'])).toEqual(expect.arrayContaining(['ioredis', 'zod']));
  });
});
