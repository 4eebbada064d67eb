import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import type { Faults } from '../../src/simulator/types.js';
import { PRODUCTS, call, outcome, product } from './sim-http.js';

const running: RunningSimulator[] = [];
async function start(
  seed: number,
  faults: Partial<Faults>,
  clock?: () => number,
): Promise<RunningSimulator> {
  const sim = await startSimulator({ seed, faults, ...(clock ? { clock } : {}) });
  running.push(sim);
  return sim;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** The outcome of each of 40 requests, one after another (0: connection destroyed). */
async function outcomes(sim: RunningSimulator): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    statuses.push(
      i % 2 === 0
        ? await outcome(sim, 'GET', '/external/api/orders')
        : await outcome(sim, 'PUT', PRODUCTS, { body: [product(String(i))] }),
    );
  }
  return statuses;
}

describe('faults', () => {
  const mix = { failRate: 0.3, resetRate: 0.2, applyThenFailRate: 0.2 };

  it('gives the same outcomes for the same seed and other outcomes for another seed', async () => {
    const a = await outcomes(await start(42, mix));
    const b = await outcomes(await start(42, mix));
    const c = await outcomes(await start(43, mix));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    // The mix really produced each kind of answer.
    expect(a).toEqual(expect.arrayContaining([0, 200]));
    expect(a.some((s) => [500, 502, 503].includes(s))).toBe(true);
  });

  it('fails without applying: 5xx INTERNAL without Retry-After, or a reset connection', async () => {
    const failing = await start(1, { failRate: 1 });
    const answer = await call(failing, 'PUT', PRODUCTS, { key: 'k', body: [product('1')] });
    expect([500, 502, 503]).toContain(answer.status);
    expect(answer.headers['retry-after']).toBeUndefined();
    expect(answer.body).toMatchObject({ error: { code: 'INTERNAL' } });
    expect(failing.state('products')).toEqual([]);
    // The key was not used up: the retry applies once the fault is gone.
    failing.setFaults({ failRate: 0 });
    const retry = await call(failing, 'PUT', PRODUCTS, { key: 'k', body: [product('1')] });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();

    const resetting = await start(1, { resetRate: 1 });
    expect(await outcome(resetting, 'PUT', PRODUCTS, { body: [product('1')] })).toBe(0);
    expect(resetting.state('products')).toEqual([]);
    expect(resetting.stats()).toMatchObject({ applied: 0, faults: { reset: 1 } });
    expect(resetting.requests()).toMatchObject([{ operationId: 'products.put', status: 0 }]);
  });

  it('applies, then destroys the connection, with apply-then-fail', async () => {
    const sim = await start(1, { applyThenFailRate: 1 });
    expect(await outcome(sim, 'PUT', PRODUCTS, { body: [product('1')] })).toBe(0);
    expect(sim.state('products')).toHaveLength(1);
    // Reads are never "applied", so they are answered.
    expect(await outcome(sim, 'GET', '/external/api/orders')).toBe(200);
  });
});

describe('rate limit', () => {
  // The simulator's clock stopped mid-second: a burst falls in one window however slowly this
  // machine sends it (a real second can pass between two requests of a loaded machine).
  const now = Date.parse('2026-03-02T10:00:00.500Z');
  const clock = (): number => now;

  async function burst(sim: RunningSimulator) {
    return await Promise.all(
      Array.from({ length: 10 }, () => call(sim, 'GET', '/external/api/microshops')),
    );
  }

  it('states its limit on every answer in the IETF or X-RateLimit form when asked', async () => {
    const ietf = await start(1, { rateLimit: 50, rateLimitHeaders: 'ietf' }, clock);
    const first = await call(ietf, 'GET', '/external/api/microshops');
    expect(first.headers['ratelimit-policy']).toBe('"default";q=50;w=1');
    expect(first.headers['ratelimit']).toBe('"default";r=49;t=1');
    const x = await start(1, { rateLimit: 50, rateLimitHeaders: 'x' }, clock);
    const answer = await call(x, 'GET', '/external/api/microshops');
    expect(answer.headers['x-ratelimit-limit']).toBe('50');
    expect(answer.headers['x-ratelimit-remaining']).toBe('49');
    expect(answer.headers['x-ratelimit-reset']).toBe(String(Math.ceil((now + 500) / 1000)));
    const none = await start(1, { rateLimit: 50 });
    expect(
      (await call(none, 'GET', '/external/api/microshops')).headers['ratelimit'],
    ).toBeUndefined();
  });

  it('costs a request its items with --rate-limit-cost items, and changes the limit while it runs', async () => {
    const sim = await start(1, { rateLimit: 150, rateLimitCost: 'items' }, clock);
    const batch = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => product(String(from + i)));
    // Two batches of 100 items cannot both pass in one second of 150 items.
    const [a, b] = await Promise.all([
      call(sim, 'PUT', PRODUCTS, { body: batch(100, 0) }),
      call(sim, 'PUT', PRODUCTS, { body: batch(100, 100) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    sim.setFaults({ rateLimit: 0 });
    expect((await call(sim, 'PUT', PRODUCTS, { body: batch(100, 200) })).status).toBe(200);
  });

  it('answers 429 RATE_LIMITED with Retry-After in seconds above N requests per second', async () => {
    const sim = await start(1, { rateLimit: 2 }, clock);
    const answers = await burst(sim);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(8);
    for (const a of limited) {
      expect(a.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(a.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    }
    expect(sim.stats().rateLimited).toBe(limited.length);
  });

  it('gives Retry-After as an HTTP-date after the request when asked', async () => {
    const sim = await start(1, { rateLimit: 1, retryAfter: 'date' }, clock);
    const answers = await burst(sim);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(9);
    for (const a of limited) {
      // The start of the next one-second window.
      expect(a.headers['retry-after']).toBe('Mon, 02 Mar 2026 10:00:01 GMT');
    }
  });
});

describe('faults on reads', () => {
  const READS = [
    '/external/api/orders',
    '/external/api/reports/z-report',
    '/external/api/statistics/revenue',
    PRODUCTS,
    '/external/api/stores',
    '/external/api/microshops',
  ];

  it('answers reads 500, 502 or 503 with --fail-rate and resets them with --reset-rate', async () => {
    const failing = await start(2, { failRate: 1 });
    for (const path of READS) {
      const answer = await call(failing, 'GET', path);
      expect([path, [500, 502, 503].includes(answer.status)]).toEqual([path, true]);
      expect(answer.body).toMatchObject({ error: { code: 'INTERNAL' } });
    }
    expect(failing.stats().faults.failed).toBe(READS.length);

    const resetting = await start(2, { resetRate: 1 });
    for (const path of READS)
      expect([path, await outcome(resetting, 'GET', path)]).toEqual([path, 0]);
    expect(resetting.stats().faults.reset).toBe(READS.length);
  });

  it('rate-limits reads and fails a share of them with the seed deciding which', async () => {
    const limited = await start(2, { rateLimit: 1 });
    const statuses = await Promise.all(READS.map((path) => outcome(limited, 'GET', path)));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(READS.length - 2);

    const reads = async (sim: RunningSimulator) => {
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push(await outcome(sim, 'GET', READS[i % READS.length]!));
      return out;
    };
    const a = await reads(await start(9, { failRate: 0.4, resetRate: 0.2 }));
    expect(await reads(await start(9, { failRate: 0.4, resetRate: 0.2 }))).toEqual(a);
    expect(a).toEqual(expect.arrayContaining([0, 200]));
    expect(a.some((s) => [500, 502, 503].includes(s))).toBe(true);
  });

  it('adds --latency to reads', async () => {
    const sim = await start(2, { latency: [300, 300] });
    const started = performance.now();
    expect((await call(sim, 'GET', '/external/api/orders')).status).toBe(200);
    // A lower bound only: the injected delay cannot be skipped, however fast the machine.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(sim.requests()).toMatchObject([{ operationId: 'orders.get', status: 200 }]);
  });
});

describe('latency', () => {
  it('holds many requests at once without Node warning of a listener leak', async () => {
    const sim = await start(7, { latency: [50, 60] });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 24 }, () => outcome(sim, 'GET', '/external/api/orders')),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
