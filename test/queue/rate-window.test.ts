/**
 * The rate governor's decisions on real Redis, each script run with an injected clock (`now`), so
 * the assertions are the windows it grants and the rates it keeps, not the time anything took:
 * a stated limit (the platform's headers or delivery.ratePerSecond) of q a second is q grants per
 * window stretched by the margin (4/s: 4 per 1030 ms, 0.97 of it, where a whole-grant margin gave
 * 3, 0.75); a 429 under it widens the margin, time without one narrows it; a discovered rate is
 * real (3.9/s: 4 grants per 1026 ms); which headers pause every worker.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRateLimitHeaders } from '../../src/interface/rate-limit-headers.js';
import { runScript } from '../../src/redis/index.js';
import { RATE_OBSERVED } from '../../src/queue/scripts/rate-observed.js';
import { RATE_REFUSED } from '../../src/queue/scripts/rate-refused.js';
import { RATE_TAKE } from '../../src/queue/scripts/rate-take.js';
import { rateTakeKeys, START_PER_SECOND, statedLimit } from '../../src/queue/worker/rate-gate.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const T = 1_800_000_000_000;
const prefixes: string[] = [];
let redis: Redis;

beforeAll(() => {
  redis = new Redis(TEST_REDIS_URL);
});

afterAll(async () => {
  redis.disconnect();
  for (const p of prefixes) await deleteKeys(p);
});

function newKeys() {
  const p = uniquePrefix('ratewindow');
  prefixes.push(p);
  return deliveryKeys(p);
}

type Keys = ReturnType<typeof deliveryKeys>;

/** The take script's reply at `now`, one grant asked: 0 granted, else the ms to wait. */
async function take(keys: Keys, now: number, fixedPerSecond = 0): Promise<number> {
  return (await takeBlock(keys, now, 1, fixedPerSecond)).waitMs;
}

async function takeBlock(keys: Keys, now: number, block: number, fixedPerSecond = 0) {
  return await runScript(redis, RATE_TAKE, rateTakeKeys(keys), {
    fixedPerSecond,
    lane: 'bulk',
    bulkShare: 0.8,
    startPerSecond: START_PER_SECOND,
    block,
    now,
  });
}

async function refused(keys: Keys, now: number, fixedPerSecond = 0): Promise<void> {
  await runScript(
    redis,
    RATE_REFUSED,
    { limit: keys.rateLimit, window: keys.rateBucket },
    { startPerSecond: START_PER_SECOND, fixedPerSecond, now },
  );
}

async function observe(keys: Keys, quota: number, windowMs: number, now: number): Promise<void> {
  await runScript(redis, RATE_OBSERVED, { limit: keys.rateLimit }, { quota, windowMs, now });
}

/** A number of the limit hash (Lua writes reals with 17 digits). */
async function field(keys: Keys, name: string): Promise<number> {
  return Number(await redis.hget(keys.rateLimit, name));
}

/** Takes at `times` and replies each answer. */
async function takes(keys: Keys, times: number[], fixedPerSecond = 0): Promise<number[]> {
  const replies: number[] = [];
  for (const now of times) replies.push(await take(keys, now, fixedPerSecond));
  return replies;
}

describe('a stated limit', () => {
  it('grants all of a small header-stated quota per window stretched by 3%', async () => {
    const keys = newKeys();
    await observe(keys, 4, 1000, T);
    // Four grants, then the fifth waits for the first to leave the 1030 ms window.
    expect(await takes(keys, [T, T + 100, T + 200, T + 300, T + 400])).toEqual([0, 0, 0, 0, 630]);
    expect(await takes(keys, [T + 1029, T + 1030, T + 1031])).toEqual([1, 0, 99]);
  });

  it('grants a configured rate the same way, headers or none', async () => {
    const keys = newKeys();
    expect(await takes(keys, [T, T + 1, T + 2, T + 3, T + 4], 4)).toEqual([0, 0, 0, 0, 1026]);
  });

  it('takes grants in blocks while the window is under half full, one at a time near the limit', async () => {
    const keys = newKeys();
    const granted = async (now: number, rate: number) =>
      (await takeBlock(keys, now, 16, rate)).granted;
    // 1,000 a second: blocks of 16 up to half the window (31 blocks, 496 grants, then 4)...
    const blocks: number[] = [];
    for (let i = 0; i < 32; i++) blocks.push(await granted(T, 1000));
    expect(blocks).toEqual([...Array<number>(31).fill(16), 4]);
    // ...then one at a time to the last grant of the window.
    for (let taken = 500; taken < 999; taken++) await granted(T, 1000);
    expect(await granted(T, 1000)).toBe(1);
    expect(await takeBlock(keys, T, 16, 1000)).toEqual({ waitMs: 1030, granted: 0 });
    // Under 100 a window: always one (a fiftieth of 40 is none).
    const small = newKeys();
    expect((await takeBlock(small, T, 16, 40)).granted).toBe(1);
  });

  it('stretches a longer window by the same share: 100 per minute is 100 per 61.8 s', async () => {
    const keys = newKeys();
    await observe(keys, 100, 60_000, T);
    const replies = await takes(
      keys,
      Array.from({ length: 101 }, (_, i) => T + i),
    );
    expect(replies.slice(0, 100).every((r) => r === 0)).toBe(true);
    expect(replies[100]).toBe(61_800 - 100);
  });

  it('widens the margin on a 429 (once a second) and narrows it after 30 s without one', async () => {
    const keys = newKeys();
    await observe(keys, 4, 1000, T);
    await refused(keys, T);
    await refused(keys, T + 500); // the same burst
    expect(await field(keys, 'hm')).toBeCloseTo(0.05, 9);
    expect(await redis.hget(keys.rateLimit, 'grants')).toBeNull(); // no discovered rate moved
    expect(await takes(keys, [T, T, T, T, T])).toEqual([0, 0, 0, 0, 1050]);
    await refused(keys, T + 1_000);
    expect(await field(keys, 'hm')).toBeCloseTo(0.07, 9);
    // 30 s on without a 429: half a step narrower.
    await observe(keys, 4, 1000, T + 31_000);
    await take(keys, T + 31_000);
    expect(await field(keys, 'hm')).toBeCloseTo(0.06, 9);
    // A configured rate's 429 widens the same margin.
    const configured = newKeys();
    await refused(configured, T, 4);
    expect(await takes(configured, [T, T, T, T, T], 4)).toEqual([0, 0, 0, 0, 1050]);
  });
});

describe('a discovered rate', () => {
  it('is real: 3.9 a second is 4 grants per 1026 ms', async () => {
    const keys = newKeys();
    await redis.hset(keys.rateLimit, 'grants', '3.9', 'found', '1', 'dec', T, 'inc', T);
    expect(await takes(keys, [T, T, T, T, T])).toEqual([0, 0, 0, 0, 1026]);
    // 1.5 a second: 2 grants per 1334 ms.
    await redis.hset(keys.rateLimit, 'grants', '1.5', 'inc', T + 5_000);
    expect(await takes(keys, [T + 5_000, T + 5_000, T + 5_000])).toEqual([0, 0, 1334]);
  });

  it('starts low, adds one a second up to 8, then doubles every 200 ms while half the window is used (slow start)', async () => {
    const keys = newKeys();
    expect(await takes(keys, [T, T])).toEqual([0, 0]);
    expect(await field(keys, 'grants')).toBe(START_PER_SECOND + 1);
    // The window (3 a second) fills: no step before 200 ms have passed, and the ask that finds it
    // full comes back then, not when the oldest grant leaves (998 ms)...
    expect(await takes(keys, [T + 1, T + 2])).toEqual([0, 198]);
    expect(await field(keys, 'grants')).toBe(3);
    // ...then the first ask of each 200 ms takes a step at once, the window full: one request a
    // second more under 8 (a doubling from 4 to 8 against a limit of 4 sends four requests to be
    // refused, one more request one), then twice the rate.
    const rates: number[] = [];
    for (let k = 1; k <= 7; k++) {
      const now = T + 200 * k;
      const grants = await field(keys, 'grants');
      expect(await take(keys, now)).toBe(0);
      for (let i = 1; i < grants; i++) await take(keys, now);
      rates.push(await field(keys, 'grants'));
    }
    expect(rates).toEqual([4, 5, 6, 7, 8, 16, 32]);
    // Half the window unused (a demand under the rate): no step, however long.
    const idle = newKeys();
    await redis.hset(idle.rateLimit, 'grants', '8', 'inc', T);
    expect(await takes(idle, [T + 1_000, T + 1_100, T + 1_200])).toEqual([0, 0, 0]);
    expect(await field(idle, 'grants')).toBe(8);
  });

  it('ends slow start at half of what the platform was really sent in the last second', async () => {
    const keys = newKeys();
    await redis.hset(keys.rateLimit, 'grants', '64', 'inc', T);
    // 48 grants in the last second (the rate doubled to 64 but the requests were fewer).
    for (let i = 0; i < 48; i++) await take(keys, T + 100 + i);
    await refused(keys, T + 200);
    expect(await field(keys, 'max')).toBe(48);
    expect(await field(keys, 'grants')).toBe(24);
    // No grants seen (a 429 of a request sent long ago): half the rate, as before.
    const quiet = newKeys();
    await redis.hset(quiet.rateLimit, 'grants', '64');
    await refused(quiet, T);
    expect(await field(quiet, 'max')).toBe(32);
    expect(await field(quiet, 'grants')).toBe(16);
  });

  it('comes down once per burst of 429s: halved first, 30% when they keep coming, 3% alone', async () => {
    const keys = newKeys();
    await redis.hset(keys.rateLimit, 'grants', '8');
    for (let i = 0; i < 8; i++) await take(keys, T - 500);
    await refused(keys, T); // slow start ends: half
    await refused(keys, T + 500); // the same burst
    expect(await field(keys, 'grants')).toBeCloseTo(4, 9);
    await refused(keys, T + 2_000); // another 2 s later, at the rate that held: the limit dropped
    expect(await field(keys, 'grants')).toBeCloseTo(2.8, 9);
    const probe = await field(keys, 'probe');
    await refused(keys, T + 60_000); // a lone 429 long after: the grants' jitter
    expect(await field(keys, 'grants')).toBeCloseTo(2.716, 6);
    expect(await field(keys, 'probe')).toBe(probe * 2);
  });

  it('bisects after slow start: a step up that meets a 429 goes back to the rate that held', async () => {
    // Slow start met a 429 at 64 a second (the limit is 40): 32 held, 62 (97% of 64) is aimed at.
    const keys = newKeys();
    await redis.hset(keys.rateLimit, 'grants', '64');
    for (let i = 0; i < 64; i++) await take(keys, T - 500);
    await refused(keys, T);
    expect(await field(keys, 'grants')).toBe(32);
    const fill = async (now: number) => {
      while ((await take(keys, now)) === 0);
    };
    await fill(T + 2_000); // held 2 s: half the distance to 62.08
    const step = await field(keys, 'grants');
    expect(step).toBeCloseTo(47.04, 6);
    // The step meets a 429 (2 s after the last one: the old rule read it as the limit dropping
    // and took 30% off, to 33): back to 32, and 47 is now what met a 429.
    await refused(keys, T + 2_100);
    expect(await field(keys, 'grants')).toBe(32);
    expect(await field(keys, 'max')).toBeCloseTo(step, 6);
    await fill(T + 4_100); // held: half the distance to 97% of 47.04
    expect(await field(keys, 'grants')).toBeCloseTo((32 + step * 0.97) / 2, 6);
    expect(await field(keys, 'lo')).toBe(32);
  });

  it('climbs back to 97% of the rate that met the last 429, then probes 1% beyond, then further', async () => {
    const keys = newKeys();
    await redis.hset(keys.rateLimit, 'grants', '2', 'max', '4', 'found', '1', 'dec', T, 'inc', T);
    const fill = async (now: number) => {
      for (let i = 0; i < 4; i++) await take(keys, now);
    };
    await fill(T + 2_000); // held 2 s after the decrease, then half the distance to 3.88
    expect(await field(keys, 'grants')).toBeCloseTo(2.94, 6);
    for (let k = 1; k <= 5; k++) await fill(T + 2_000 + 3_000 * k);
    const recovered = await field(keys, 'grants');
    expect(recovered).toBeGreaterThan(3.88 * 0.99);
    expect(recovered).toBeLessThan(3.88);
    await fill(T + 23_000); // near it, 5 s on: a probe of 1%
    expect(await field(keys, 'grants')).toBeCloseTo(recovered * 1.01, 6);
    // It met no 429: the next probe goes twice as far (a raised limit is found in seconds).
    await fill(T + 28_000);
    expect(await field(keys, 'grants')).toBeCloseTo(recovered * 1.01 * 1.02, 6);
    await refused(keys, T + 29_000); // a probe went too far: 3% under it, the step back to 1%
    expect(await field(keys, 'grants')).toBeCloseTo(recovered * 1.01 * 1.02 * 0.97, 6);
    expect(await field(keys, 'max')).toBeCloseTo(recovered * 1.01 * 1.02, 6);
    expect(await field(keys, 'step')).toBeCloseTo(0.01, 9);
  });

  it('after a probe met a 429, probes as rarely again until two probes in a row met none', async () => {
    // A 2% probe met a 429 at 4.0 a second: 3.88 is 97% of it, the interval doubled to 10 s.
    const keys = newKeys();
    await redis.hset(keys.rateLimit, 'grants', '3.88', 'lo', '3.88', 'max', '4', 'found', '1');
    await redis.hset(keys.rateLimit, 'dec', T, 'inc', T, 'probe', '10000', 'step', '0.01');
    const fill = async (now: number) => {
      for (let i = 0; i < 4; i++) await take(keys, now);
    };
    await fill(T + 10_000); // the rate held 10 s: a probe of 1%, the interval kept
    expect(await field(keys, 'grants')).toBeCloseTo(3.88 * 1.01, 9);
    expect(await field(keys, 'probe')).toBe(10_000);
    // The 1% probe holds; the next (2%, back at the rate that met the 429) comes 10 s after it,
    // not 5 s (halving here undid the doubling: at 4 a second a 429 every 15 s, 2% of requests).
    await fill(T + 15_000);
    expect(await field(keys, 'grants')).toBeCloseTo(3.88 * 1.01, 9);
    await fill(T + 20_000);
    expect(await field(keys, 'grants')).toBeCloseTo(3.88 * 1.01 * 1.02, 9);
    expect(await field(keys, 'probe')).toBe(10_000);
    // Two in a row met none (a limit raised): the next probes come sooner and go further.
    await fill(T + 30_000);
    expect(await field(keys, 'grants')).toBeCloseTo(3.88 * 1.01 * 1.02 * 1.04, 9);
    expect(await field(keys, 'probe')).toBe(5_000);
  });
});

describe("the headers' pause", () => {
  it('pauses for a reset shorter than the window, never for one that is the whole window', () => {
    const at = (headers: Record<string, string>, nowMs = T) =>
      statedLimit(readRateLimitHeaders(headers, nowMs)!, 1);
    // IETF's t=1 of a one-second window: the gate's own window keeps to it.
    expect(at({ 'ratelimit-policy': '"d";q=4;w=1', ratelimit: '"d";r=0;t=1' })).toEqual({
      quota: 4,
      windowMs: 1000,
    });
    // 12 s left of a spent minute: everyone waits 12 s.
    expect(at({ 'ratelimit-policy': '"d";q=100;w=60', ratelimit: '"d";r=0;t=12' })).toEqual({
      quota: 100,
      windowMs: 60_000,
      pauseMs: 12_000,
    });
    // X-RateLimit-Reset in epoch seconds, 500 ms away: wait for it (the next window starts there).
    const x = {
      'x-ratelimit-limit': '4',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1800000001',
    };
    expect(at(x, T + 500)).toEqual({ quota: 4, windowMs: 1000, pauseMs: 500 });
    // Something left: no pause.
    expect(at({ ...x, 'x-ratelimit-remaining': '1' }, T + 500)).toEqual({
      quota: 4,
      windowMs: 1000,
    });
  });

  it('keeps an hourly quota as its share of a minute', () => {
    const limit = readRateLimitHeaders({ 'ratelimit-policy': '"h";q=3600;w=3600' }, T)!;
    expect(statedLimit(limit, 1)).toEqual({ quota: 60, windowMs: 60_000 });
  });
});
