/**
 * Leases on a real Redis: renewed while the holder lives, freed within one expiry when the holder
 * is killed with SIGKILL, made permanent by keep, and never renewed, kept nor freed by a holder
 * that lost it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLease, type Lease } from '../../src/redis/lease.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/until.js';

const prefix = uniquePrefix('lease');
const redis = new Redis(TEST_REDIS_URL);
const HOLDER = fileURLToPath(new URL('./hold-lease.ts', import.meta.url));

afterAll(async () => {
  redis.disconnect();
  await deleteKeys(prefix);
});

describe('a lease', () => {
  it('is renewed while its holder lives, and refused to others', async () => {
    const key = `${prefix}:renewed`;
    const lease = await acquireLease(redis, key, 1_000);
    expect(lease).toBeDefined();
    await sleep(2_500); // past two expiries: only renewals keep it
    expect(await acquireLease(redis, key, 1_000)).toBeUndefined();
    expect(lease?.lost).toBe(false);
    await lease?.release();
    expect(await redis.exists(key)).toBe(0);
  });

  it('is freed within one expiry when its holder is killed with SIGKILL', async () => {
    const key = `${prefix}:killed`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', HOLDER, TEST_REDIS_URL, key, '2000'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(child, 'exit');
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    expect(line.toString()).toBe('held\n');
    const token = await redis.get(key);
    expect(token).not.toBeNull();
    child.kill('SIGKILL');
    await exited;

    // Still held just after the kill; then it lapses on its own, with nobody to renew it.
    expect(await acquireLease(redis, key, 2_000)).toBeUndefined();
    let successor: Lease | undefined;
    await until(
      'a successor to take the lease',
      async () => (successor = await acquireLease(redis, key, 2_000)) !== undefined,
      10_000,
    );
    expect(await redis.get(key)).not.toBe(token);
    await successor?.release();
  });

  it('kept, no longer expires; and stays until released', async () => {
    const key = `${prefix}:kept`;
    // Long enough not to lapse before keep() on a loaded machine; pttl -1 shows the expiry gone.
    const lease = await acquireLease(redis, key, 10_000);
    expect(await lease?.keep()).toBe(true);
    expect(await redis.pttl(key)).toBe(-1);
    expect(await acquireLease(redis, key, 300)).toBeUndefined();
    await lease?.release();
    expect(await redis.exists(key)).toBe(0);
  });

  it('is taken when the answer to taking it was lost and the command resent', async () => {
    const key = `${prefix}:resent`;
    const { hostname, port } = new URL(TEST_REDIS_URL);
    const proxy = await startTcpProxy(Number(port || 6379), hostname);
    // The first connection is cut as Redis answers the SET: ioredis reconnects and sends it again.
    proxy.cutAfter(0, 1);
    const client = new Redis(proxy.port, '127.0.0.1', {
      // Nothing else on the connection (no HELLO, INFO, CLIENT SETINFO): the SET's answer is its first.
      protocol: 2,
      enableReadyCheck: false,
      disableClientInfo: true,
      maxRetriesPerRequest: null,
      retryStrategy: () => 20,
    });
    try {
      const lease = await acquireLease(client, key, 10_000, 'the-holder');
      expect(proxy.connections()).toBe(2);
      expect(lease).toBeDefined();
      expect(await redis.get(key)).toBe('the-holder');
      await lease?.release();
      expect(await redis.exists(key)).toBe(0);
    } finally {
      client.disconnect();
      await proxy.close();
    }
  });

  it('once lost, neither renews, keeps nor frees its successor', async () => {
    const key = `${prefix}:lost`;
    const first = await acquireLease(redis, key, 300);
    // The first holder's lease lapses (as after an event-loop stall) and another takes the key.
    await redis.set(key, 'successor', 'PX', 60_000);
    await until('the first holder to see its lease lost', () => first?.lost === true);
    await sleep(250); // two more of the first holder's renewal ticks
    expect(await first?.keep()).toBe(false);
    await first?.release();
    expect(await redis.get(key)).toBe('successor');
    // A renewal by the first holder would have cut the successor's expiry to 300 ms.
    expect(await redis.pttl(key)).toBeGreaterThan(30_000);
  });
});
