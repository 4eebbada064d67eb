/**
 * A redis-server of Ferry's own, for where none runs (the demo) and for tests that stop or restart
 * Redis: on a free port of 127.0.0.1, nothing saved to disk, stopped by its owner.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

export interface PrivateRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** How long a started redis-server has to answer PING. */
const START_TIMEOUT_MS = 10_000;

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Starts redis-server (with `extraArgs` after Ferry's own) on `port` (default: a free one), its
 * files in `dataDir` (default: a temporary folder removed on stop), and waits until it answers PING. Undefined when no redis-server binary is installed, or when it
 * exits or never answers.
 */
export async function startPrivateRedis(
  extraArgs: readonly string[] = [],
  port?: number,
  dataDir?: string,
): Promise<PrivateRedis | undefined> {
  port ??= await freePort();
  // A data folder of the caller's own survives stop(): a restart on it keeps the data.
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'ferry-redis-'));
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...extraArgs,
    ],
    { stdio: 'ignore' },
  );
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false)); // ENOENT: not installed
  });
  const remove = (): void => {
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  };
  if (!spawned) {
    remove();
    return undefined;
  }
  const url = `redis://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    remove();
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await answers(url)) return { url, port, stop };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  return undefined;
}
