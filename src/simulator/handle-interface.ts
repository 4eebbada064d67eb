/**
 * One interface request, in this order: body size (413), route (404), token (401), rate limit
 * (429), JSON (400), with a description its maxItems (413) and request rules (400), idempotency (replay, 422 reused, 409 in flight), latency, injected failure
 * (5xx) or reset, the operation itself, then apply-then-fail. Fault draws happen on arrival, so a seed reproduces them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_MAX_BYTES } from '../interface/index.js';
import { hasBearer } from './auth.js';
import { deleteItems, unwrapEnvelope } from './batch-writes.js';
import { credentialsOf, type SimContext } from './context.js';
import { inDescribedShape } from './described-answers.js';
import { describedRefusal } from './described-refusal.js';
import { drawFaults, type FaultDraw } from './fault-draw.js';
import { requestFingerprint } from './fingerprint.js';
import {
  BodyTooLargeError,
  destroyConnection,
  errorResponse,
  parseJson,
  readBody,
  send,
  type SimResponse,
} from './http-io.js';
import { executeRead } from './reads.js';
import type { RouteMatch } from './router.js';
import { admissionAnswer, countApplied, executeWrite, takeRate } from './write-steps.js';

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  ctx: SimContext;
  at: number;
  match: RouteMatch | undefined;
  draw: FaultDraw;
  key: string | null;
  items: number;
  /** The body text, once read. */
  body?: string;
}

async function waitLatency(ex: Exchange): Promise<boolean> {
  if (ex.draw.latencyMs <= 0) return true;
  try {
    await sleep(ex.draw.latencyMs, undefined, { signal: ex.ctx.closing });
    return true;
  } catch {
    return false; // closing
  }
}

function log(ex: Exchange, status: number): void {
  const url = ex.req.url ?? '';
  const { traceparent } = ex.req.headers;
  ex.ctx.stats.record({
    at: ex.at,
    operationId: ex.match?.operation.id ?? null,
    method: ex.req.method ?? '',
    path: url.split('?')[0] ?? url,
    idempotencyKey: ex.key,
    status,
    items: ex.items,
    ...(ex.ctx.keepBodies && ex.body !== undefined ? { body: ex.body } : {}),
    ...(typeof traceparent === 'string' ? { traceparent } : {}),
  });
}

/** Sends an answer, in the description's own shapes when one is played. */
function reply(ex: Exchange, response: SimResponse): void {
  const described = ex.ctx.described && ex.match;
  send(ex.res, described ? inDescribedShape(ex.match!.binding, response) : response);
}

async function finish(ex: Exchange, response: SimResponse): Promise<void> {
  if (!(await waitLatency(ex))) return;
  log(ex, response.status);
  reply(ex, response);
}

/** A write applied where the description answers 204 alone: 204 with no body. */
function asDescribedSuccess(ex: Exchange, response: SimResponse): SimResponse {
  const rules = ex.ctx.described?.rules.get(ex.match!.operation.id);
  if (!rules?.noContent || response.status !== 200) return response;
  return { status: 204, ...(response.headers ? { headers: response.headers } : {}), body: '' };
}

/**
 * The rate limit: the answer's rate-limit headers (set on the response, so every answer carries
 * them), and a 429 when the window is spent.
 */
function limitRate(ex: Exchange): SimResponse | undefined {
  const taken = takeRate(ex.ctx, ex.items, ex.at);
  if (!taken) return undefined;
  for (const [name, value] of Object.entries(taken.headers)) ex.res.setHeader(name, value);
  return taken.refused;
}

/** A 401 unless the request carries the token as the description (or the bearer default) asks. */
function refuseAuth(ex: Exchange, url: URL): SimResponse | undefined {
  const { req, ctx } = ex;
  const security = ctx.described?.rules.get(ex.match!.operation.id)?.security;
  const met = security ? security.met(req, url, credentialsOf(ctx)) : hasBearer(req, ctx.token);
  if (met) return undefined;
  ctx.stats.add('unauthorized');
  const message = security
    ? `the description asks for ${security.asked}`
    : 'a valid bearer token is required (Authorization: Bearer <token>)';
  return errorResponse(401, 'UNAUTHORIZED', message);
}

/** With a description: its maxItems and request rules (described-refusal.ts). */
function refuseByDescription(ex: Exchange, url: URL, body: unknown): SimResponse | undefined {
  const match = ex.match!;
  const rules = ex.ctx.described?.rules.get(match.operation.id);
  if (!rules) return undefined;
  const input = { req: ex.req, url, pathValues: Object.values(match.pathParams), body };
  const refusal = describedRefusal(match.binding, rules.check, input);
  if (refusal?.status === 400) ex.ctx.stats.add('rejected', Math.max(1, ex.items));
  return refusal;
}

async function handle(ex: Exchange, url: URL): Promise<void> {
  const { req, ctx, match } = ex;
  let raw: string;
  try {
    raw = await readBody(req, match?.binding.maxBytes ?? DEFAULT_MAX_BYTES);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    ex.res.shouldKeepAlive = false;
    const limit = match?.binding.maxBytes ?? DEFAULT_MAX_BYTES;
    return finish(ex, errorResponse(413, 'PAYLOAD_TOO_LARGE', `the body exceeds ${limit} bytes`));
  }
  ex.body = raw;
  if (!match) {
    ctx.stats.add('notFound');
    const where = ctx.described ? 'the description' : `listing ${ctx.listing}`;
    const message = `no operation ${req.method} ${url.pathname} in ${where} (GET /openapi.json lists them)`;
    return finish(ex, errorResponse(404, 'NOT_FOUND', message));
  }
  const unauthorized = refuseAuth(ex, url);
  if (unauthorized) return finish(ex, unauthorized);
  const parsed = parseJson(raw);
  const isWrite = match.operation.method !== 'GET';
  const body = parsed.ok ? parsed.value : undefined;
  const unwrapped = unwrapEnvelope(match.binding, body);
  // A delete's keys may come in the query string or the path: they count as its items.
  const items =
    match.operation.kind === 'delete'
      ? deleteItems(unwrapped, url.searchParams, match.binding, match.pathParams, !ctx.described)
      : unwrapped;
  ex.items = Array.isArray(items) ? items.length : isWrite ? 1 : 0;
  const refused = limitRate(ex);
  if (refused) return finish(ex, refused);
  if (!parsed.ok) {
    return finish(ex, errorResponse(400, 'VALIDATION_FAILED', 'the body is not valid JSON'));
  }
  const breaks = refuseByDescription(ex, url, body);
  if (breaks) return finish(ex, breaks);
  const fingerprint = isWrite
    ? requestFingerprint(req.method!, url.pathname, url.searchParams, body, raw)
    : '';

  if (ex.key) {
    const answer = admissionAnswer(ctx, ex.key, fingerprint);
    if (answer) return finish(ex, answer);
  }
  if (!(await waitLatency(ex))) return;
  if (ex.draw.failStatus !== null || ex.draw.reset) {
    if (ex.key) ctx.idempotency.abandon(ex.key);
    if (ex.draw.failStatus !== null) {
      ctx.stats.fault('failed');
      log(ex, ex.draw.failStatus);
      reply(ex, errorResponse(ex.draw.failStatus, 'INTERNAL', 'injected failure (fail-rate)'));
    } else {
      ctx.stats.fault('reset');
      log(ex, 0);
      destroyConnection(req, ex.res);
    }
    return;
  }
  if (!isWrite) {
    const declared = ctx.described?.rules.get(match.operation.id)?.queryParams;
    const response = executeRead(match, url, ctx, declared);
    log(ex, response.status);
    reply(ex, response);
    return;
  }
  const wctx = { state: ctx.state, rejectKeys: ctx.rejectKeys, rules: ctx.itemRules };
  const result = executeWrite(match, body, url.searchParams, wctx, ctx.described === undefined);
  const response = asDescribedSuccess(ex, result.response);
  countApplied(ctx, ex.key, result, fingerprint);
  if (ex.key) ctx.idempotency.complete(ex.key, response);
  if (ex.draw.applyThenFail) {
    ctx.stats.fault('appliedThenFailed');
    log(ex, 0);
    destroyConnection(req, ex.res);
    return;
  }
  log(ex, response.status);
  reply(ex, response);
}

export async function handleInterface(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: SimContext,
): Promise<void> {
  // Everything that draws from the PRNG or counts happens before the first await: arrival order.
  const match = ctx.router(req.method ?? '', url.pathname);
  ctx.stats.request(match?.operation.id);
  const isWrite = match !== undefined && match.operation.method !== 'GET';
  const header = req.headers[ctx.idempotencyHeader.toLowerCase()];
  const ex: Exchange = {
    req,
    res,
    ctx,
    at: ctx.clock(),
    match,
    draw: drawFaults(ctx.random, ctx.faults, isWrite),
    key: isWrite && typeof header === 'string' && header !== '' ? header : null,
    items: 0,
  };
  await handle(ex, url);
}
