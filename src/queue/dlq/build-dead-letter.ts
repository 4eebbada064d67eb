/** A refused or exhausted request -> a dead-letter entry (the request as sent, no credentials). */
import { parseExact } from '../../base/index.js';
import { type Binding, deleteParts } from '../../interface/index.js';
import type { JobRequest, DeadLetter, DeadLetterRequest } from '../../runs/index.js';
import { buildCall, itemsWithPayloads } from '../request-body.js';
import type { Failure } from '../worker/outcomes.js';

export interface DeadLetterContext {
  runId: string;
  pipeline: string;
  jobId: string;
  attempts: number;
  idempotencyHeader: string;
  replayOf?: string;
}

function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (m, name: string) =>
    params[name] === undefined ? m : encodeURIComponent(params[name]),
  );
}

export function describeRequest(
  binding: Binding,
  request: JobRequest,
  idempotencyHeader: string,
): DeadLetterRequest {
  const call = buildCall(binding, request);
  // A delete's keys as they went (a bare key array, a query parameter, the path).
  const parts = Array.isArray(call.body) ? deleteParts(binding, call.body as string[]) : {};
  const out: DeadLetterRequest = {
    method: binding.operation.method,
    path: fillPath(binding.path, { ...request.pathParams, ...parts.pathParams }),
    headers: { [idempotencyHeader]: request.idempotencyKey },
  };
  const body = call.bodyJson !== undefined ? parseExact(call.bodyJson) : parts.body;
  if (body !== undefined) {
    out.headers['content-type'] = 'application/json';
    out.body = body;
  }
  if (parts.query) out.query = parts.query;
  return out;
}

export function buildDeadLetter(
  ctx: DeadLetterContext,
  binding: Binding,
  request: JobRequest,
  failure: Failure,
  at: number,
): DeadLetter {
  const entry: DeadLetter = {
    // The store gives the id: the items' open entry's, or a fresh one.
    id: '',
    runId: ctx.runId,
    pipeline: ctx.pipeline,
    operationId: request.operationId,
    pathParams: request.pathParams,
    idempotencyKey: request.idempotencyKey,
    items: itemsWithPayloads(request),
    request: describeRequest(binding, request, ctx.idempotencyHeader),
    errorCode: failure.errorCode,
    message: failure.message,
    attempts: ctx.attempts,
    at,
    jobId: ctx.jobId,
  };
  if (failure.status !== undefined) entry.status = failure.status;
  if (failure.bodyExcerpt !== undefined) entry.bodyExcerpt = failure.bodyExcerpt;
  if (failure.error !== undefined) entry.error = failure.error;
  if (failure.errors !== undefined) entry.errors = failure.errors;
  if (ctx.replayOf !== undefined) entry.replayOf = ctx.replayOf;
  return entry;
}
