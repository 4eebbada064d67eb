import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { startSimulator } from '../../src/simulator/start-simulator.js';
import { FERRY_BIN } from '../helpers/ferry-bin.js';
import { ferryHere } from '../helpers/ferry-here.js';
import { freePort } from '../helpers/redis-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function ferry(args: string[]) {
  const child = spawn(process.execPath, [FERRY_BIN, ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number);
  const output = () => ({ stdout, stderr });
  return { child, exited, output };
}

/** Waits until stdout holds `marker` (the child has started listening). */
async function stdoutWith(run: ReturnType<typeof ferry>, marker: string): Promise<string> {
  await vi.waitUntil(() => run.output().stdout.includes(marker) || run.child.exitCode !== null, {
    timeout: 50_000,
    interval: 20,
  });
  return run.output().stdout;
}

describe('ferry simulator', () => {
  it('listens, answers with the token, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const run = ferry([
      'simulator',
      '--port',
      String(port),
      '--listing',
      'B',
      '--token',
      'tok',
      '--seed',
      '4',
    ]);
    const line = await stdoutWith(run, '\n');
    expect(line).toBe(`Simulator listening on http://127.0.0.1:${port} (listing B)\n`);
    const ok = await request(`http://127.0.0.1:${port}/api/partner/signup`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'P' }),
    });
    expect(ok.statusCode).toBe(201);
    await ok.body.dump();
    const stats = await request(`http://127.0.0.1:${port}/__sim/stats`);
    expect(await stats.body.json()).toMatchObject({ requests: 1, seed: 4 });
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('prints {url, port, listing} with --json, and adds orders at --orders-per-minute', async () => {
    const run = ferry(['simulator', '--port', '0', '--json', '--orders-per-minute', '60000']);
    const text = await stdoutWith(run, '}\n');
    const orders = async () => {
      const res = await request(`${(JSON.parse(text) as { url: string }).url}/__sim/state/orders`);
      return ((await res.body.json()) as { id: string }[]).length;
    };
    // 240 seeded orders, then about 1,000 a second.
    await vi.waitUntil(async () => (await orders()) > 260, { timeout: 50_000, interval: 50 });
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.output().stdout).toBe(text);
    const doc = JSON.parse(text) as {
      url: string;
      port: number;
      listing: string;
    };
    expect(doc).toEqual({
      url: `http://127.0.0.1:${doc.port}`,
      port: doc.port,
      listing: 'A',
      processes: 1,
    });
    expect(doc.port).toBeGreaterThan(0);
  });

  it('exits 2 naming the flag for a bad value', async () => {
    for (const [flag, value] of [
      ['--fail-rate', '1.5'],
      ['--latency', '50-10'],
      ['--listing', 'C'],
      ['--port', '70000'],
      ['--rate-limit', '-1'],
      ['--orders-per-minute', 'many'],
    ] as const) {
      const run = await ferryHere(['simulator', flag, value]);
      expect([flag, run.code]).toEqual([flag, 2]);
      expect(run.stderr).toContain(flag);
    }
  });

  it('exits 2 with what to do when the port is in use', async () => {
    const taken = await startSimulator();
    try {
      const run = await ferryHere(['simulator', '--port', String(taken.port)]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('choose another --port');
    } finally {
      await taken.close();
    }
  });
});
