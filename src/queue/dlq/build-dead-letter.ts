/** A refused or exhausted request -> a dead-letter entry (the request as sent, no credentials). */
import { parseExact } from '../../base/index.js';
import type { Binding } from '../../interface/index.js';
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
  const out: DeadLetterRequest = {
    method: binding.operation.method,
    path: fillPath(binding.path, request.pathParams),
    headers: { [idempotencyHeader]: request.idempotencyKey },
  };
  if (call.bodyJson !== undefined) {
    out.headers['content-type'] = 'application/json';
    out.body = parseExact(call.bodyJson);
  }
  if (call.query) out.query = call.query as Record<string, string[]>;
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
