/**
 * `ferry simulator --processes 2` as a child process over real TCP: one owner of the state behind
 * two serving processes behaves as one process does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Pool, request } from 'undici';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { FERRY_BIN } from '../helpers/ferry-bin.js';

const AUTH = { authorization: 'Bearer dev-token', 'content-type': 'application/json' };
const PRODUCTS = '/external/api/products';

const children: ChildProcess[] = [];
const pools: Pool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.destroy()));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) {
        found.push(Number(name));
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** The serving processes among them (tsx's compiler, when there is one, is a child too). */
function servingOf(pids: number[]): number[] {
  return pids.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('simulator'));
}

/** Inodes of the established TCP connections whose local port is `port` (/proc/net/tcp, tcp6). */
function establishedOn(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local_address is "ADDR:PORT"; state 01 is ESTABLISHED; the inode is the 10th field.
      if (f[1]?.endsWith(`:${hexPort}`) && f[3] === '01' && f[9]) inodes.add(f[9]);
    }
  }
  return inodes;
}

/** How many of those connections each process holds (its fds that are those sockets). */
function connectionsHeld(pids: number[], port: number): number[] {
  const inodes = establishedOn(port);
  return pids.map(
    (pid) =>
      readdirSync(`/proc/${pid}/fd`).filter((fd) => {
        try {
          const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
          return target.startsWith('socket:[') && inodes.has(target.slice(8, -1));
        } catch {
          return false; // closed meanwhile
        }
      }).length,
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function simulator(args: string[] = []) {
  const child = spawn(
    process.execPath,
    [FERRY_BIN, 'simulator', '--port', '0', '--json', '--processes', '2', ...args],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  await vi.waitUntil(() => stdout.includes('}\n') || child.exitCode !== null, {
    timeout: 50_000,
    interval: 20,
  });
  const { url } = JSON.parse(stdout) as { url: string };
  // Many connections: requests land on both serving processes.
  const pool = new Pool(url, { connections: 16, pipelining: 1 });
  pools.push(pool);
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await pool.request({
      method: method as 'PUT',
      path,
      headers: { ...AUTH, ...(key ? { 'idempotency-key': key } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: text };
  };
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${url}/__sim/${path}`, {
      method: method as 'GET',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return res.body.json() as Promise<Record<string, unknown>>;
  };
  return { child, url, call, admin, exited, stderr: () => stderr };
}

describe('ferry simulator --processes 2', () => {
  it('serves on two processes besides the owner, and SIGTERM leaves none alive', async () => {
    const sim = await simulator();
    const pids = childrenOf(sim.child.pid!);
    expect(servingOf(pids)).toHaveLength(2);
    const served = await Promise.all(
      Array.from({ length: 40 }, (_, i) => sim.call('PUT', PRODUCTS, [{ externalId: `p${i}` }])),
    );
    expect(served.every((r) => r.status === 200)).toBe(true);
    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
    await vi.waitUntil(() => pids.every((pid) => !alive(pid)), { timeout: 5000, interval: 20 });
  });

  it('answers one idempotency key identically on every connection, applying it once', async () => {
    const sim = await simulator();
    const body = [{ externalId: 'k1', name: 'first' }, { name: 'no key' }];
    const answers = await Promise.all(
      Array.from({ length: 64 }, () => sim.call('PUT', PRODUCTS, body, 'key-1')),
    );
    const first = answers.find((a) => a.headers['idempotent-replayed'] === undefined);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    for (const answer of answers) {
      expect(answer.status).toBe(207);
      expect(answer.body).toBe(first!.body);
    }
    // The same key with another body is refused, whichever process it reaches.
    const reused = await Promise.all(
      Array.from({ length: 8 }, () => sim.call('PUT', PRODUCTS, [{ externalId: 'k2' }], 'key-1')),
    );
    expect(reused.map((r) => r.status)).toEqual(Array(8).fill(422));
    const stats = await sim.admin('GET', 'stats');
    expect(stats).toMatchObject({ requests: 72, applied: 1, replayed: 63, duplicates: 0 });
    expect(await sim.admin('GET', 'state/products')).toEqual([{ externalId: 'k1', name: 'first' }]);
  });

  it('has one rate budget and counts every request in one set of stats', async () => {
    const sim = await simulator(['--rate-limit', '10']);
    const prices = { prices: [{ amount: '1.00', currency: 'NOK' }] };
    // 30 requests at once within one wall-clock second: one budget of 10 for both processes
    // (one each would let up to 20 through). A burst that crosses a second is sent again.
    let sent = 0;
    let passed = 0;
    let lastPassed = 0;
    let within = false;
    // A burst that crossed into a second spent some of that second's budget: the next one starts
    // in a second after it.
    let lastSecond = 0;
    for (let attempt = 0; attempt < 8 && !within; attempt++) {
      await vi.waitUntil(
        () => Date.now() % 1000 < 50 && Math.floor(Date.now() / 1000) > lastSecond,
        { timeout: 3000, interval: 1 },
      );
      const second = Math.floor(Date.now() / 1000);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => sim.call('PATCH', `${PRODUCTS}/p${i}/prices`, prices)),
      );
      // Not limited: 404, the product does not exist.
      expect(answers.every((a) => a.status === 429 || a.status === 404)).toBe(true);
      sent += 30;
      lastPassed = answers.filter((a) => a.status !== 429).length;
      passed += lastPassed;
      lastSecond = Math.floor(Date.now() / 1000);
      within = lastSecond === second;
    }
    expect(within).toBe(true);
    expect(lastPassed).toBe(10);
    const stats = await sim.admin('GET', 'stats');
    expect(stats).toMatchObject({ requests: sent, rateLimited: sent - passed, rejected: passed });
    const log = (await sim.admin('GET', 'requests')) as unknown as { status: number }[];
    expect(log).toHaveLength(sent);
  });

  it('plans with the reject keys and token set a moment ago, and a reset clears what all saw', async () => {
    const sim = await simulator();
    await sim.call('PUT', PRODUCTS, [{ externalId: 'a' }, { externalId: 'b' }]);
    const prices = { prices: [{ amount: '2.50', currency: 'NOK' }] };
    expect((await sim.call('PATCH', `${PRODUCTS}/a/prices`, prices)).status).toBe(200);
    await sim.admin('POST', 'faults', { rejectKeys: ['b'] });
    const refused = await Promise.all(
      Array.from({ length: 8 }, () => sim.call('PATCH', `${PRODUCTS}/b/prices`, prices)),
    );
    expect(refused.map((r) => r.status)).toEqual(Array(8).fill(422));
    // Both serving processes answered some of them (the pool keeps its connections open): each
    // process saw the keys set a moment ago, not only the one that happened to get the call.
    const serving = servingOf(childrenOf(sim.child.pid!));
    const held = connectionsHeld(serving, Number(new URL(sim.url).port));
    expect(held).toHaveLength(2);
    expect(held.every((n) => n > 0)).toBe(true);
    await sim.admin('POST', 'token', { token: 'new-token' });
    const old = await Promise.all(
      Array.from({ length: 8 }, () => sim.call('PUT', PRODUCTS, [{ externalId: 'c' }])),
    );
    expect(old.map((r) => r.status)).toEqual(Array(8).fill(401));

    await sim.admin('POST', 'reset');
    expect(await sim.admin('GET', 'state/products')).toEqual([]);
    expect(await sim.admin('GET', 'stats')).toMatchObject({ requests: 0, applied: 0 });
    // The token is back to the start one on every process, the keys forgotten, the state empty.
    const again = await Promise.all(
      Array.from({ length: 8 }, () => sim.call('PATCH', `${PRODUCTS}/a/prices`, prices, 'kp')),
    );
    expect(again.map((r) => r.status)).toEqual(Array(8).fill(404));
    expect(again.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(7);
  });

  it('stops with exit 1, naming it, when a serving process dies, and leaves none alive', async () => {
    const sim = await simulator();
    const pids = childrenOf(sim.child.pid!);
    const serving = pids.filter((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('simulator'),
    );
    expect(serving).toHaveLength(2);
    process.kill(serving[0]!, 'SIGKILL');
    expect(await sim.exited).toBe(1);
    expect(sim.stderr()).toContain(`serving process ${serving[0]} ended (signal SIGKILL)`);
    await vi.waitUntil(() => pids.every((pid) => !alive(pid)), { timeout: 5000, interval: 20 });
  });
});
