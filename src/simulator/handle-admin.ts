/**
 * Admin endpoints under /__sim (no token, not counted as interface requests):
 * GET stats, GET state/<resource>, GET requests[?limit=N], POST reset, GET|POST faults, POST token,
 * POST orders.
 */
import type { IncomingMessage } from 'node:http';
import { InvalidFaultsError } from './faults.js';
import { errorResponse, jsonResponse, readBody, type SimResponse } from './http-io.js';
import { STATE_RESOURCES, isStateResource } from './state-store.js';
import type { Faults, RunningSimulator } from './types.js';

export const ADMIN_PREFIX = '/__sim/';
const MAX_ADMIN_BODY = 1024 * 1024;
/** Most orders one `POST /__sim/orders` adds. */
export const MAX_ORDERS_ADDED = 100_000;

async function jsonBody(req: IncomingMessage): Promise<{ value?: unknown; error?: SimResponse }> {
  const raw = await readBody(req, MAX_ADMIN_BODY);
  try {
    return { value: raw.trim() === '' ? {} : (JSON.parse(raw) as unknown) };
  } catch {
    return { error: errorResponse(400, 'VALIDATION_FAILED', 'the body is not valid JSON') };
  }
}

export async function handleAdmin(
  req: IncomingMessage,
  url: URL,
  sim: RunningSimulator,
): Promise<SimResponse> {
  const route = `${req.method} ${url.pathname.slice(ADMIN_PREFIX.length)}`;
  if (route === 'GET stats') return jsonResponse(200, sim.stats());
  if (route === 'GET requests') {
    const raw = url.searchParams.get('limit');
    if (raw !== null && !/^\d+$/.test(raw)) {
      return errorResponse(400, 'VALIDATION_FAILED', 'limit must be a non-negative integer');
    }
    return jsonResponse(200, sim.requests(raw === null ? undefined : Number(raw)));
  }
  if (route === 'POST reset') {
    await readBody(req, MAX_ADMIN_BODY);
    sim.reset();
    return jsonResponse(200, { reset: true });
  }
  if (route === 'GET faults') return jsonResponse(200, sim.faults());
  if (route === 'POST faults') {
    const { value, error } = await jsonBody(req);
    if (error) return error;
    try {
      return jsonResponse(200, sim.setFaults(value as Partial<Faults>));
    } catch (e) {
      if (!(e instanceof InvalidFaultsError)) throw e;
      return errorResponse(400, 'VALIDATION_FAILED', e.message);
    }
  }
  if (route === 'POST orders') {
    const { value, error } = await jsonBody(req);
    if (error) return error;
    const count = (value as { count?: unknown } | null)?.count;
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_ORDERS_ADDED) {
      const message = `the body must be {"count": N} with N an integer from 1 to ${MAX_ORDERS_ADDED}`;
      return errorResponse(400, 'VALIDATION_FAILED', message);
    }
    return jsonResponse(201, { ids: sim.addOrders(count as number) });
  }
  if (route === 'POST token') {
    const { value, error } = await jsonBody(req);
    if (error) return error;
    const token = (value as { token?: unknown }).token;
    if (typeof token !== 'string' || token === '') {
      return errorResponse(400, 'VALIDATION_FAILED', 'the body must be {"token": "<new token>"}');
    }
    sim.setToken(token);
    return jsonResponse(200, { token: 'changed' });
  }
  const state = /^GET state\/([A-Za-z]+)$/.exec(route);
  if (state) {
    const resource = state[1]!;
    if (resource !== 'orders' && !isStateResource(resource)) {
      const message = `no resource "${resource}"; one of ${STATE_RESOURCES.join(', ')}, orders`;
      return errorResponse(404, 'NOT_FOUND', message);
    }
    return jsonResponse(200, sim.state(resource));
  }
  return errorResponse(
    404,
    'NOT_FOUND',
    `no admin endpoint ${req.method} ${url.pathname}; see docs/SIMULATOR.md`,
  );
}
