import { afterEach, describe, expect, it, vi } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { PRODUCTS, call, outcome, product } from './sim-http.js';

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('Idempotency-Key', () => {
  it('applies the same key and body once and replays the stored answer', async () => {
    sim = await startSimulator({ seed: 3 });
    const body = [product('1'), { name: 'no key' }];
    const first = await call(sim, 'PUT', PRODUCTS, { key: 'k-1', body });
    // Same body with its keys in another order is the same request.
    const reordered = body.map((item) => Object.fromEntries(Object.entries(item).reverse()));
    const second = await call(sim, 'PUT', PRODUCTS, { key: 'k-1', body: reordered });
    expect(first.status).toBe(207);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.status).toBe(207);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(sim.stats()).toMatchObject({ applied: 1, replayed: 1, duplicates: 0, requests: 2 });
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the same key with another body or path', async () => {
    sim = await startSimulator();
    await call(sim, 'PUT', PRODUCTS, { key: 'k-2', body: [product('1')] });
    const other = await call(sim, 'PUT', PRODUCTS, { key: 'k-2', body: [product('2')] });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    const otherOp = await call(sim, 'PATCH', PRODUCTS, { key: 'k-2', body: [product('1')] });
    expect(otherOp.status).toBe(422);
    expect(sim.state('products')).toHaveLength(1);
  });

  it('answers 409 REQUEST_IN_PROGRESS while the first request with the key is in flight', async () => {
    // The first request holds its key for the whole latency; the second arrives well within it.
    sim = await startSimulator({ faults: { latency: [1500, 1500] } });
    const running = sim;
    const first = call(sim, 'PUT', PRODUCTS, { key: 'k-3', body: [product('1')] });
    await vi.waitUntil(() => running.stats().requests === 1, { interval: 5 });
    const second = await call(sim, 'PUT', PRODUCTS, { key: 'k-3', body: [product('1')] });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: { code: 'REQUEST_IN_PROGRESS' } });
    expect((await first).status).toBe(200);
    const third = await call(sim, 'PUT', PRODUCTS, { key: 'k-3', body: [product('1')] });
    expect(third.headers['idempotent-replayed']).toBe('true');
    expect(sim.stats()).toMatchObject({ applied: 1, inProgress: 1, replayed: 1 });
  });

  it('uses the configured header name', async () => {
    sim = await startSimulator({ idempotencyHeader: 'X-Request-Key' });
    const headers = { 'x-request-key': 'k-4' };
    await call(sim, 'PUT', PRODUCTS, { headers, body: [product('1')] });
    const again = await call(sim, 'PUT', PRODUCTS, { headers, body: [product('1')] });
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('duplicates', () => {
  it('counts a write applied a second time without a key', async () => {
    sim = await startSimulator();
    await call(sim, 'PUT', PRODUCTS, { body: [product('1')] });
    await call(sim, 'PUT', PRODUCTS, { body: [product('2')] });
    expect(sim.stats().duplicates).toBe(0);
    await call(sim, 'PUT', PRODUCTS, { body: [product('1')] });
    expect(sim.stats()).toMatchObject({ applied: 3, duplicates: 1 });
  });

  it('stays 0 when a key is retried after apply-then-fail, and the retry replays', async () => {
    sim = await startSimulator({ seed: 11, faults: { applyThenFailRate: 1 } });
    const body = [product('1')];
    expect(await outcome(sim, 'PUT', PRODUCTS, { key: 'k-5', body })).toBe(0);
    expect(sim.state('products')).toHaveLength(1);
    sim.setFaults({ applyThenFailRate: 0 });
    const retry = await call(sim, 'PUT', PRODUCTS, { key: 'k-5', body });
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(sim.stats()).toMatchObject({
      applied: 1,
      replayed: 1,
      duplicates: 0,
      faults: { appliedThenFailed: 1 },
    });
  });

  it('counts a key applied again once its stored answer was dropped', async () => {
    sim = await startSimulator({ idempotencyCapacity: 1 });
    await call(sim, 'PUT', PRODUCTS, { key: 'a', body: [product('1')] });
    await call(sim, 'PUT', PRODUCTS, { key: 'b', body: [product('2')] });
    const again = await call(sim, 'PUT', PRODUCTS, { key: 'a', body: [product('1')] });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(sim.stats().duplicates).toBe(1);
  });
});
