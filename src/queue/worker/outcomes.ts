/** What happened to the items of a request: the shapes send-request.ts hands back. */
import type { ErrorCode } from '../../errors/index.js';
import type { AnswersConfig } from '../../config/index.js';
import {
  type InterfaceError,
  type ItemError,
  type PlatformWords,
  refusalWords,
} from '../../interface/index.js';
import type { StateItem } from '../../pipeline/index.js';
import type { JobRequest } from '../../runs/index.js';
import type { RefusalReason } from './breaker.js';

export const EXCERPT_CHARS = 500;

/** Why items were not delivered. */
export interface Failure {
  status?: number;
  bodyExcerpt?: string;
  errorCode: ErrorCode;
  message: string;
  /** The platform's own words for it, with each item error's pointer (answer-words.ts). */
  error?: string;
  errors?: ItemError[];
}

/** The platform's words as a failure carries them: `error` names each item error's pointer too. */
export function platformError(said: PlatformWords): Pick<Failure, 'error' | 'errors'> {
  // An item error that only repeats the words adds nothing.
  const errors = said.errors.filter((e) => e.pointer !== '' || e.message !== said.words);
  const items = errors.map((e) => {
    const own = e.message !== undefined && e.message !== said.words ? `: ${e.message}` : '';
    return `${e.pointer || '(request)'}${own}`;
  });
  const words = said.words ?? (errors.length > 0 ? 'the platform refused' : undefined);
  if (words === undefined) return {};
  return {
    error: items.length > 0 ? `${words} [${items.join('; ')}]` : words,
    ...(errors.length > 0 ? { errors } : {}),
  };
}

export interface Refusal extends Failure {
  /** The request (or part of it) the items were sent in. */
  request: JobRequest;
  items: StateItem[];
}

/**
 * A refusal the platform decided on the request itself (a 4xx, or an item refused in a 207): one
 * it keeps as the answer to the request's idempotency key. Not a request that ran out of retries.
 */
export function isPlatformNo(refusal: Refusal): boolean {
  return (
    refusal.errorCode === 'FERRY_HTTP_PERMANENT' ||
    refusal.errorCode === 'FERRY_HTTP_PAYLOAD_TOO_LARGE'
  );
}

export interface Deferral extends Failure {
  request: JobRequest;
}

/**
 * A request its job did not send because the `inARow` before it failed transiently: it waits for
 * the job's next attempt (and is dead-lettered with this on the last). It had no answer of its own,
 * so it carries theirs only as what kept it back: their code, and a message that names the request
 * that failed last, never that request's status or body as if they were its own.
 */
export function notSentAfter(failed: Failure, inARow: number, request: JobRequest): Deferral {
  return {
    request,
    errorCode: failed.errorCode,
    message: `not sent: ${inARow} requests of its job failed in a row before it, the last with: ${failed.message}`,
  };
}

/** A part the platform refused as it refuses everyone (breaker.ts): it waits, never dead-lettered. */
export interface Held extends Deferral {
  reason: RefusalReason;
}

export interface SendResult {
  confirmed: StateItem[];
  refused: Refusal[];
  /** Parts that failed transiently: they go to the job's next attempt. */
  deferred: Deferral[];
  held: Held[];
}

/** A failed call's failure; a refusal's body is read for the platform's words (`answers`). */
export function failureOf(error: InterfaceError, answers: AnswersConfig = {}): Failure {
  const failure: Failure = { errorCode: error.code, message: error.message };
  if (error.context.body !== undefined && error.context.body !== null) {
    Object.assign(failure, platformError(refusalWords(error.context.body, answers)));
  }
  if (error.status !== undefined) failure.status = error.status;
  const body = error.context.bodyExcerpt;
  if (body) failure.bodyExcerpt = body.slice(0, EXCERPT_CHARS);
  return failure;
}
