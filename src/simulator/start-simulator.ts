/**
 * startSimulator: a real HTTP server (node:http) that plays the platform, for the CLI and for tests.
 * docs/SIMULATOR.md describes it.
 */
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { stringify } from 'yaml';
import { OAUTH_TOKEN_PATH, issueToken } from './auth.js';
import {
  applyFaults,
  createContext,
  resetContext,
  scopedGrant,
  type SimContext,
} from './context.js';
import { loadDescribedPlatform, type DescribedPlatform } from './described-platform.js';
import { ADMIN_PREFIX, handleAdmin } from './handle-admin.js';
import { handleInterface } from './handle-interface.js';
import { errorResponse, readBody, send, type SimResponse } from './http-io.js';
import { buildOpenApi } from './openapi.js';
import { isStateResource, STATE_RESOURCES } from './state-store.js';
import type { RunningSimulator, SimulatorOptions } from './types.js';

export type {
  DescribedSummary,
  Faults,
  RunningSimulator,
  SimStats,
  SimulatorOptions,
  RequestRecord,
} from './types.js';

export function serverUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

function openApi(ctx: SimContext, url: string, format: 'json' | 'yaml'): SimResponse {
  if (ctx.described) {
    const type = format === 'json' ? 'application/json' : 'application/yaml';
    return { status: 200, headers: { 'content-type': type }, body: ctx.described.texts[format] };
  }
  const doc = buildOpenApi({
    listing: ctx.listing,
    bindings: ctx.bindings,
    serverUrl: url,
    idempotencyHeader: ctx.idempotencyHeader,
    oauthTokenUrl: ctx.oauth ? `${url}${OAUTH_TOKEN_PATH}` : undefined,
  });
  if (format === 'json') return { status: 200, body: JSON.stringify(doc, null, 2) };
  return { status: 200, headers: { 'content-type': 'application/yaml' }, body: stringify(doc) };
}

/**
 * The RunningSimulator of a context. `changed` is told when what serving processes check against
 * (the token, the reject keys) may have changed: a reset, new faults, a new token.
 */
export function simulatorApi(
  ctx: SimContext,
  options: SimulatorOptions,
  described: DescribedPlatform | undefined,
  urlOf: () => string,
  close: () => Promise<void>,
  changed?: () => void,
): RunningSimulator {
  return {
    get url() {
      return urlOf();
    },
    get port() {
      return Number(new URL(urlOf()).port);
    },
    listing: ctx.listing,
    described: described && {
      source: described.source,
      title: described.title,
      version: described.version,
      operations: described.operations.map((o) => o.id),
    },
    stats: () => ctx.stats.snapshot(),
    state(resource) {
      if (resource === 'orders') return ctx.orders.all();
      if (!isStateResource(resource)) {
        throw new Error(
          `no simulator resource "${resource}"; one of ${STATE_RESOURCES.join(', ')}, orders`,
        );
      }
      return ctx.state.all(resource);
    },
    addOrders: (count) => ctx.orders.add(count),
    requests: (limit) => ctx.stats.requests(limit),
    reset() {
      resetContext(ctx, options);
      changed?.();
    },
    setFaults(partial) {
      const faults = applyFaults(ctx, partial);
      changed?.();
      return faults;
    },
    faults: () => ({ ...ctx.faults, rejectKeys: [...ctx.faults.rejectKeys] }),
    setToken(token) {
      ctx.token = token;
      changed?.();
    },
    close,
  };
}

/** The request listener of a simulator: admin, OpenAPI, the token endpoint, then the interface. */
export function simulatorListener(ctx: SimContext, sim: RunningSimulator) {
  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = new URL(req.url ?? '/', 'http://simulator');
    if (target.pathname.startsWith(ADMIN_PREFIX)) {
      return send(res, await handleAdmin(req, target, sim));
    }
    if (
      req.method === 'GET' &&
      (target.pathname === '/openapi.json' || target.pathname === '/openapi.yaml')
    ) {
      return send(res, openApi(ctx, sim.url, target.pathname.endsWith('json') ? 'json' : 'yaml'));
    }
    if (ctx.oauth && req.method === 'POST' && target.pathname === ctx.tokenPath) {
      const raw = await readBody(req, 64 * 1024);
      return send(res, issueToken(req, raw, ctx.oauth, scopedGrant(ctx) ?? ctx.token));
    }
    return handleInterface(req, res, target, ctx);
  }
  return (req: IncomingMessage, res: ServerResponse): void => {
    route(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      send(res, errorResponse(500, 'INTERNAL', `simulator error: ${message}`));
    });
  };
}

/** Listens on `port` (0: a free one) or a Unix socket path; rejects on an error (EADDRINUSE). */
export async function listen(server: Server, where: number | string, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      server.off('error', reject);
      resolve();
    };
    if (typeof where === 'string') server.listen(where, done);
    else server.listen(where, host, done);
  });
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const described = options.openapi ? await loadDescribedPlatform(options.openapi) : undefined;
  const closing = new AbortController();
  // Every request in its latency listens for the close: as many as are in flight, not a leak.
  setMaxListeners(0, closing.signal);
  const ctx = createContext(options, closing.signal, described);
  const host = options.host ?? '127.0.0.1';
  let url = '';
  const sim = simulatorApi(ctx, options, described, () => url, close);
  const server = createServer(simulatorListener(ctx, sim));
  // Longer than clients' keep-alive, so the server never closes a socket a client is about to reuse.
  server.keepAliveTimeout = 30_000;
  await listen(server, options.port ?? 0, host);
  url = serverUrl(host, (server.address() as AddressInfo).port);
  ctx.arrivals.start();

  let closed: Promise<void> | undefined;
  function close(): Promise<void> {
    closed ??= new Promise<void>((resolve) => {
      closing.abort();
      ctx.arrivals.stop();
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closed;
  }
  return sim;
}
