/**
 * Leases on a real Redis: renewed while the holder lives, freed within one expiry when the holder
 * is killed with SIGKILL, and never renewed nor freed by a holder that lost it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLease } from '../../src/redis/lease.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

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
    const lease = await acquireLease(redis, key, 300);
    expect(lease).toBeDefined();
    await sleep(900); // three expiries
    expect(await acquireLease(redis, key, 300)).toBeUndefined();
    expect(lease?.lost).toBe(false);
    await lease?.release();
    expect(await redis.exists(key)).toBe(0);
  });

  it('is freed within one expiry when its holder is killed with SIGKILL', async () => {
    const key = `${prefix}:killed`;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', HOLDER, TEST_REDIS_URL, key, '1000'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = once(child, 'exit');
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    expect(line.toString()).toBe('held\n');
    const token = await redis.get(key);
    expect(token).not.toBeNull();
    child.kill('SIGKILL');
    await exited;

    expect(await acquireLease(redis, key, 1000)).toBeUndefined();
    let successor = await acquireLease(redis, key, 1000);
    for (let i = 0; i < 40 && !successor; i += 1) {
      await sleep(50);
      successor = await acquireLease(redis, key, 1000);
    }
    expect(successor).toBeDefined();
    expect(await redis.get(key)).not.toBe(token);
    await successor?.release();
  });

  it('once lost, neither renews nor frees its successor', async () => {
    const key = `${prefix}:lost`;
    const first = await acquireLease(redis, key, 300);
    // The first holder's lease lapses (as after an event-loop stall) and another takes the key.
    await redis.set(key, 'successor', 'PX', 300);
    await sleep(150); // past the first holder's next renewal
    expect(first?.lost).toBe(true);
    await first?.release();
    expect(await redis.get(key)).toBe('successor');
    await sleep(400);
    expect(await redis.exists(key)).toBe(0); // not renewed by the first holder
  });
});
