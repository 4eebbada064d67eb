/** Plain HTTP calls to a running simulator (undici), for the simulator's own tests. */
import { request } from 'undici';
import type { RunningSimulator } from '../../src/simulator/start-simulator.js';

export interface SimAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface CallOptions {
  body?: unknown;
  /** Raw text body, sent as is (for malformed JSON). */
  raw?: string;
  key?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

export async function call(
  sim: RunningSimulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<SimAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? 'dev-token' : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (options.key) headers['idempotency-key'] = options.key;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(`${sim.url}${path}`, {
    method: method as 'GET',
    headers,
    body,
  });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') flat[k] = v;
  return { status: res.statusCode, headers: flat, body: parsed };
}

/** `call`, but a destroyed connection gives status 0 instead of throwing. */
export async function outcome(
  sim: RunningSimulator,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<number> {
  try {
    return (await call(sim, method, path, options)).status;
  } catch {
    return 0;
  }
}

export const PRODUCTS = '/external/api/products';

export function product(externalId: string, extra: Record<string, unknown> = {}) {
  return {
    externalId,
    name: `Product ${externalId}`,
    vendor: 'Acme',
    handle: `product-${externalId}`,
    active: true,
    categoryExternalIds: ['C1'],
    ...extra,
  };
}
