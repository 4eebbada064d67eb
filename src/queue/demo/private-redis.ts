/**
 * A redis-server of the demo's own, for a machine where none runs: on a free port of 127.0.0.1,
 * nothing saved to disk, stopped with the demo. Undefined when no redis-server binary is installed.
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
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
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

export async function startPrivateRedis(): Promise<PrivateRedis | undefined> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ferry-demo-redis-'));
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
    ],
    { stdio: 'ignore' },
  );
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false)); // ENOENT: not installed
  });
  const remove = () => rmSync(dir, { recursive: true, force: true });
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
  for (let i = 0; i < 100; i += 1) {
    if (await answers(url)) return { url, stop };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  return undefined;
}
