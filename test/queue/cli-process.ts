/** Running `ferry` as a child process, with a config file of the test's own. */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { FERRY_BIN } from '../helpers/ferry-bin.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import type { DeliveryOverrides } from './delivery-fixtures.js';

/** Writes <dir>/<name> (a config for these tests); returns its path. */
export function writeConfigFile(
  dir: string,
  prefix: string,
  baseUrl: string,
  delivery: DeliveryOverrides = {},
  redisUrl = TEST_REDIS_URL,
  name = 'ferry.yaml',
): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    stringify({
      redis: { url: redisUrl, prefix },
      interface: { baseUrl, auth: { type: 'bearer', token: 'dev-token' }, retryAfterCapMs: 5000 },
      delivery: {
        concurrency: 2,
        attempts: 10,
        backoff: { baseMs: 20, capMs: 200 },
        lockDurationMs: 2000,
        stalledIntervalMs: 1000,
        shutdownTimeoutMs: 10000,
        reportsDir: join(dir, 'reports'),
        ...delivery,
      },
      log: { level: 'warn', format: 'json' },
    }),
  );
  return file;
}

export interface FerryProcess {
  child: ChildProcess;
  /** Resolves to the exit code (or the signal's name). */
  exited: Promise<number | string>;
  stdout(): string;
  stderr(): string;
}

/** The environment of a command run with `configFile`: the config file says it all. */
function ferryEnv(configFile: string, extraEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FERRY_CONFIG: configFile };
  // No override from the environment the tests run in.
  for (const name of [
    'REDIS_URL',
    'FERRY_PREFIX',
    'FERRY_BASE_URL',
    'FERRY_TOKEN',
    'FERRY_LISTING',
  ]) {
    delete env[name];
  }
  // Nor traces sent where the caller's OTEL_* say: a test sets those it wants.
  for (const name of Object.keys(env)) if (name.startsWith('OTEL_')) delete env[name];
  return Object.assign(env, extraEnv);
}

export function spawnFerry(
  args: string[],
  configFile: string,
  extraEnv: NodeJS.ProcessEnv = {},
): FerryProcess {
  const child = spawn(process.execPath, [FERRY_BIN, ...args], {
    cwd: PROJECT_ROOT,
    env: ferryEnv(configFile, extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return { child, exited, stdout: () => out, stderr: () => err };
}

/** Runs a command to its end in a child process (where the process is the point). */
export async function runFerry(
  args: string[],
  configFile: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number | string; stdout: string; stderr: string }> {
  const p = spawnFerry(args, configFile, extraEnv);
  const code = await p.exited;
  return { code, stdout: p.stdout(), stderr: p.stderr() };
}

/** Runs a command to its end in this process (test/helpers/ferry-here.ts): same result, no start-up. */
export async function runFerryHere(
  args: string[],
  configFile: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return await ferryHere(args, { env: ferryEnv(configFile, extraEnv) });
}

/** Resolves once `ferry worker` said it is delivering. */
export async function workerReady(p: FerryProcess, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!p.stderr().includes('ferry worker: delivering')) {
    if (p.child.exitCode !== null) throw new Error(`worker exited: ${p.stderr()}`);
    if (Date.now() > deadline) throw new Error(`worker did not start: ${p.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills (SIGKILL) what a test left running of `processes` and empties the list: for afterEach. */
export async function killLeft(processes: FerryProcess[]): Promise<void> {
  for (const p of processes.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  }
}
