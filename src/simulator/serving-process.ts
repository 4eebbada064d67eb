/**
 * One serving process of `ferry simulator --processes N` (a node:cluster worker): it accepts on the
 * shared port, reads, authenticates, parses and validates each interface write, plans it
 * (write-plan.ts) and asks the owner of the state to apply it (owner-channel.ts), then answers in
 * JSON. Everything else it forwards to the owner's HTTP server (forward-to-owner.ts).
 * docs/SIMULATOR.md, "Several processes".
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { operationsOfListing, resolveBindings } from '../interface/index.js';
import { hasBearer, OAUTH_TOKEN_PATH } from './auth.js';
import { deleteItems, unwrapEnvelope } from './batch-writes.js';
import { requestFingerprint } from './fingerprint.js';
import { forwardTo, type Forward } from './forward-to-owner.js';
import { ADMIN_PREFIX } from './handle-admin.js';
import { destroyConnection, errorResponse, parseJson, readBody, send } from './http-io.js';
import { LineChannel } from './line-channel.js';
import type { Reply, ServingSettings, ToOwner, ToServing } from './owner-messages.js';
import { buildRouter, type RouteMatch } from './router.js';
import type { SimulatorOptions } from './types.js';
import { ASSUMED_RULES } from './validation.js';
import { planWrite } from './write-plan.js';
import { executeWrite } from './write-steps.js';

/** Where the owner listens: its channel for writes and its HTTP server for everything else. */
export interface OwnerSockets {
  channel: string;
  http: string;
}

/** Names the owner's sockets to the serving processes it starts. */
export const OWNER_SOCKETS_ENV = 'SIMULATOR_OWNER_SOCKETS';

interface Served {
  settings: ServingSettings;
  rejectKeys: ReadonlySet<string>;
}

class OwnerLink {
  private readonly channel: LineChannel<ToOwner, ToServing>;
  private readonly asked = new Map<number, (reply: Reply) => void>();
  private nextId = 0;
  served: Served | undefined;
  readonly ready: Promise<void>;

  constructor(socketPath: string) {
    const socket = connect(socketPath);
    // The owner gone, this process has nothing to serve.
    socket.on('close', () => process.exit(1));
    let ready!: () => void;
    this.ready = new Promise((resolve) => (ready = resolve));
    this.channel = new LineChannel(socket, (message) => {
      if ('settings' in message) {
        const { settings } = message;
        this.served = { settings, rejectKeys: new Set(settings.rejectKeys) };
        ready();
        return;
      }
      const answer = this.asked.get(message.id);
      this.asked.delete(message.id);
      answer?.(message);
    });
  }

  id(): number {
    return ++this.nextId;
  }

  ask(message: ToOwner): Promise<Reply> {
    return new Promise((resolve) => {
      this.asked.set(message.id, resolve);
      this.channel.send(message);
    });
  }
}

/** A write this process plans: a route of Ferry's interface, its whole body announced and allowed. */
function plannable(req: IncomingMessage, match: RouteMatch | undefined): match is RouteMatch {
  if (!match || req.headers['transfer-encoding'] !== undefined) return false;
  return Number(req.headers['content-length'] ?? 0) <= match.binding.maxBytes;
}

async function write(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  match: RouteMatch,
  owner: OwnerLink,
  forward: Forward,
  keyHeader: string,
): Promise<void> {
  const raw = await readBody(req, match.binding.maxBytes);
  const parsed = parseJson(raw);
  if (!parsed.ok) return forward(req, res, raw);
  const body = parsed.value;
  const method = req.method!;
  const fingerprint = requestFingerprint(method, url.pathname, url.searchParams, body, raw);
  const header = req.headers[keyHeader];
  const key = typeof header === 'string' && header !== '' ? header : null;
  const unwrapped = unwrapEnvelope(match.binding, body);
  const items =
    match.operation.kind === 'delete'
      ? deleteItems(unwrapped, url.searchParams, match.binding, match.pathParams, true)
      : unwrapped;
  const { traceparent } = req.headers;
  for (;;) {
    const { settings, rejectKeys } = owner.served!;
    // Refused: the owner answers it as one process does, and counts it.
    if (!hasBearer(req, settings.token)) return forward(req, res, raw);
    const plan = planWrite((state) =>
      executeWrite(
        match,
        body,
        url.searchParams,
        { state, rejectKeys, rules: ASSUMED_RULES },
        true,
      ),
    );
    const id = owner.id();
    let reply = await owner.ask({
      id,
      version: settings.version,
      operationId: match.operation.id,
      method,
      pathname: url.pathname,
      path: (req.url ?? '').split('?')[0]!,
      search: url.search,
      key,
      fingerprint,
      items: Array.isArray(items) ? items.length : 1,
      ...(typeof traceparent === 'string' ? { traceparent } : {}),
      ...(plan ? { plan } : { body }),
    });
    // The token or the reject keys changed since: checked and planned again.
    if ('replan' in reply) continue;
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    if ('wait' in reply) {
      if (reply.wait) await sleep(reply.wait);
      if (!('answer' in reply)) reply = await owner.ask({ id, go: true });
    }
    if ('answer' in reply) return send(res, reply.answer);
    if ('chosen' in reply) return send(res, plan![reply.chosen]!.response);
    return destroyConnection(req, res);
  }
}

/**
 * Serves until the owner says stop (or goes). SIGINT and SIGTERM are left to the owner: Ctrl-C
 * reaches every process of the group, and the owner stops this one.
 */
export async function serveAsProcess(
  options: SimulatorOptions,
  sockets: OwnerSockets,
): Promise<void> {
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', ignore);
  process.on('message', (message) => {
    if (message === 'stop') process.exit(0);
  });
  const owner = new OwnerLink(sockets.channel);
  await owner.ready;
  const forward = forwardTo(sockets.http);
  const router = buildRouter(
    operationsOfListing(options.listing ?? 'A'),
    resolveBindings(options.bindings),
  );
  const keyHeader = (options.idempotencyHeader ?? 'Idempotency-Key').toLowerCase();
  const tokenPath = options.oauth ? OAUTH_TOKEN_PATH : undefined;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const method = req.method ?? '';
    const elsewhere =
      method === 'GET' ||
      url.pathname.startsWith(ADMIN_PREFIX) ||
      (method === 'POST' && url.pathname === tokenPath);
    const match = elsewhere ? undefined : router(method, url.pathname);
    if (!plannable(req, match)) return forward(req, res);
    return write(req, res, url, match, owner, forward, keyHeader);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      send(res, errorResponse(500, 'INTERNAL', `simulator error: ${message}`));
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('error', (error) => {
    process.send?.({ listenError: (error as { code?: string }).code ?? String(error) });
    process.exit(2);
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
}
