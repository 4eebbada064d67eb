/**
 * Started before Redis (a compose file, an orchestrator, a failover): `ferry worker` and `ferry
 * serve` say once what they wait for, answer /healthz 200 and /readyz 503 meanwhile, and begin
 * when Redis answers; afterwards one line per change of Redis's state, never a stack trace per
 * failed command. One-shot commands fail at once with exit code 5 and their own need.
 */
import { Writable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createLogger, type Logger } from '../../src/logging/logger.js';
import { createRedis, waitForRedis } from '../../src/redis/index.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { freePort, startRedisServer, type PrivateRedis } from '../helpers/redis-server.js';
import { TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import { spawnFerry, writeConfigFile, type FerryProcess } from './cli-process.js';
import { tempDir } from './delivery-fixtures.js';

const dir = tempDir('wait-redis');
let sim: RunningSimulator;
let redis: PrivateRedis | undefined;
const processes: FerryProcess[] = [];

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 5 });
});

afterAll(async () => {
  for (const p of processes) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  }
  await redis?.stop();
  await sim.close();
  dir.remove();
});

async function status(url: string): Promise<number> {
  const answer = await request(url);
  await answer.body.dump();
  return answer.statusCode;
}

function linesOf(p: FerryProcess, text: string): number {
  return p
    .stderr()
    .split('\n')
    .filter((line) => line.includes(text)).length;
}

describe('long-running processes', () => {
  it('start while Redis is down, wait for it, begin when it answers, and log each change once', async () => {
    const port = await freePort();
    const redisUrl = `redis://127.0.0.1:${port}`;
    const consolePort = await freePort();
    const configFile = writeConfigFile(dir.path, uniquePrefix('waitr'), sim.url, {}, redisUrl);
    const env = { FERRY_LOG_LEVEL: 'info' };
    const worker = spawnFerry(['worker'], configFile, env);
    const serve = spawnFerry(['serve', '--port', String(consolePort)], configFile, env);
    processes.push(worker, serve);
    const base = `http://127.0.0.1:${consolePort}`;

    // Two children start at once: many seconds each on a loaded 2-core machine.
    await until('the console listens', () => serve.stderr().includes('listening on'), 90_000);
    await until('both say they wait', () =>
      [worker, serve].every((p) => p.stderr().includes(`waiting for Redis at 127.0.0.1:${port}`)),
    );
    expect(await status(`${base}/healthz`)).toBe(200);
    expect(await status(`${base}/readyz`)).toBe(503);
    expect(worker.stderr()).not.toContain('ferry worker: delivering');
    // Retrying with backoff, not exiting and not a line per attempt.
    await until('a few reconnect attempts', () => Promise.resolve(true));
    expect(worker.child.exitCode).toBeNull();
    expect(serve.child.exitCode).toBeNull();

    redis = await startRedisServer([], port);
    await until('the worker begins', () => worker.stderr().includes('ferry worker: delivering'));
    await until('the console is ready', async () => (await status(`${base}/readyz`)) === 200);

    // Redis goes away and comes back: one line each way, in each process.
    await redis.stop();
    await until('both notice', () =>
      [worker, serve].every((p) => p.stderr().includes('Redis does not answer; reconnecting')),
    );
    expect(await status(`${base}/readyz`)).toBe(503);
    redis = await startRedisServer([], port);
    await until('both see it back', () =>
      [worker, serve].every((p) => linesOf(p, '"msg":"Redis answers"') === 2),
    );
    await until('the console is ready again', async () => (await status(`${base}/readyz`)) === 200);

    for (const p of [worker, serve]) {
      expect(linesOf(p, 'waiting for Redis')).toBe(1);
      expect(linesOf(p, 'Redis does not answer; reconnecting')).toBe(1);
      // Up once after the wait, once after the restart.
      expect(linesOf(p, '"msg":"Redis answers"')).toBe(2);
      expect(p.stderr()).not.toContain('Unhandled error event');
      const traced = p
        .stderr()
        .split('\n')
        .filter((line) => /"stack"|^\s+at /.test(line));
      expect(traced).toEqual([]);
    }
    worker.child.kill('SIGTERM');
    serve.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    expect(await serve.exited).toBe(0);
  }, 240_000);
});

describe('waitForRedis', () => {
  function logged(): { logger: Logger; lines: () => string[] } {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger({ format: 'json', destination });
    return { logger, lines: () => chunks.join('').split('\n').filter(Boolean) };
  }

  it('says nothing when Redis answers at the first try', async () => {
    const { logger, lines } = logged();
    const redis = createRedis(TEST_REDIS_URL);
    try {
      const ready = await waitForRedis(redis, {
        logger,
        where: 'here',
        need: 'a test',
        signal: new AbortController().signal,
      });
      expect(ready).toBe(true);
      expect(lines()).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });

  it('says once that it waits when the first try finds no Redis', async () => {
    const { logger, lines } = logged();
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`);
    const stop = new AbortController();
    try {
      const waited = waitForRedis(redis, {
        logger,
        where: 'there',
        need: 'a test',
        signal: stop.signal,
      });
      await until('it says it waits', () => lines().length > 0);
      stop.abort();
      expect(await waited).toBe(false);
      expect(lines()).toEqual([expect.stringContaining('waiting for Redis at there: a test')]);
    } finally {
      redis.disconnect();
    }
  });
});

describe('one-shot commands', () => {
  function collect(): { stream: Writable; text: () => string } {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        done();
      },
    });
    return { stream, text: () => chunks.join('') };
  }

  it('fail fast with exit code 5 and a message naming their own need', async () => {
    const port = await freePort();
    const configFile = writeConfigFile(
      dir.path,
      uniquePrefix('oneshot'),
      sim.url,
      {},
      `redis://127.0.0.1:${port}`,
      'down.yaml',
    );
    const env: NodeJS.ProcessEnv = { ...process.env, FERRY_CONFIG: configFile };
    delete env.REDIS_URL;
    delete env.FERRY_PREFIX;
    const cases: [string[], string][] = [
      [['status'], 'the queues, runs and dead letters are kept there'],
      [['platforms'], 'the pins, blocks and runs of each platform are kept there'],
      [['runs'], 'the runs are recorded there'],
      [['dlq', 'list'], 'the dead letters are kept there'],
      [['plan', 'catalog', '--file', 'examples/items.csv'], 'planning needs the sync state'],
    ];
    for (const [args, need] of cases) {
      const stderr = collect();
      const stdout = collect();
      const code = await main([...args, '--json'], {
        env,
        stderr: stderr.stream,
        stdout: stdout.stream,
      });
      expect({ args, code }).toEqual({ args, code: 5 });
      expect(stderr.text()).toContain(`Redis at 127.0.0.1:${port} does not answer, and ${need}`);
      if (!args.includes('plan')) expect(stderr.text()).not.toContain('planning');
      expect(JSON.parse(stdout.text())).toMatchObject({
        error: { code: 'FERRY_REDIS_UNAVAILABLE' },
      });
    }
  });

  it('lists exit code 5 in the help', async () => {
    const stdout = collect();
    expect(await main(['--help'], { stdout: stdout.stream })).toBe(0);
    expect(stdout.text()).toMatch(/5\s+Redis or the platform could not be reached/);
  });
});
