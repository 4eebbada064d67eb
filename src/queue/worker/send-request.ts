/**
 * Delivers one request and isolates what the platform refuses:
 * - 2xx: every item confirmed; 207: the items whose own status is 2xx are confirmed, the others
 *   refused one by one (an item without a result is retried);
 * - 400/413/422 for a batch: the batch is split in halves (each its own request and idempotency
 *   key) until the bad items stand alone; when the answer names the bad items (per-item results in
 *   a 4xx), they are refused and the rest is sent again at once;
 * - an answer that refuses the caller rather than the items (401 after a refresh, 403, 404 for a
 *   collection route, 405): the request is held for the breaker (breaker.ts), never refused;
 * - another permanent answer (404 for an entity, 409): the request is refused;
 * - 429 (or 503 with Retry-After): the whole delivery pauses as told and the request is sent again,
 *   which spends no attempt of the job;
 * - a transient failure: handed back, for the job's next attempt (with backoff).
 * `budget` bounds the HTTP calls this request may make in one attempt (splits included); when it
 * runs out the rest is refused. Rate-limited calls have a bound of their own (RATE_LIMITED_CALLS
 * budgets): past it the request goes to the next attempt, never to the dead letters.
 */
import {
  type Binding,
  type CallResponse,
  type InterfaceClient,
  InterfaceError,
  type ItemResult,
  itemResults,
  PayloadTooLargeError,
  PermanentHttpError,
  RateLimitedError,
} from '../../interface/index.js';
import type { StateItem } from '../../pipeline/index.js';
import type { JobRequest, Lane } from '../../runs/index.js';
import { buildCall, subRequest } from '../request-body.js';
import { itemRefusal } from './item-results.js';
import { platformRefusal } from './breaker.js';
import { markRateLimited } from './job-span.js';
import { failureOf, type SendResult } from './outcomes.js';
import type { RateGate } from './rate-gate.js';

const SPLIT_STATUSES = new Set([400, 413, 422]);
const RATE_LIMITED_CALLS = 4;

export interface SendContext {
  client: InterfaceClient;
  binding(operationId: string): Binding;
  gate: RateGate;
  /** The job's lane: interactive requests go first through the gate. */
  lane: Lane;
  /** Most HTTP calls one request may make in one attempt. */
  budget: number;
  /**
   * With several platforms: a request not yet sent that would wait longer than this at its
   * platform's gate throws RateWaitError instead (the job yields its slot).
   */
  yieldAfterMs?: number;
}

/** One request's delivery: its parts, calls and outcome (methods, not closures: it runs a lot). */
class RequestSender {
  readonly result: SendResult = { confirmed: [], refused: [], deferred: [], held: [] };
  private calls = 0;
  private rateLimited = 0;

  constructor(
    private readonly ctx: SendContext,
    private readonly binding: Binding,
  ) {}

  /** Sends a part (the request, or a half of it); resolves to the request's outcome so far. */
  async send(part: JobRequest): Promise<SendResult> {
    for (;;) {
      if (this.calls >= this.ctx.budget) {
        this.result.refused.push({
          request: part,
          items: part.items,
          errorCode: 'FERRY_RETRY_BUDGET_EXHAUSTED',
          message:
            `${part.operationId}: gave up after ${this.calls} HTTP calls for one request ` +
            `(delivery.retryBudget); replay it with \`ferry dlq replay\` once the cause is fixed.`,
        });
        return this.result;
      }
      // Only before its first call may a request yield: after it, its parts' outcomes are its own.
      const yieldAfter = this.calls === 0 ? this.ctx.yieldAfterMs : undefined;
      const gate = this.ctx.gate.pass(this.ctx.lane, undefined, yieldAfter);
      if (gate) await gate;
      this.calls += 1;
      let answer: CallResponse;
      try {
        answer = await this.ctx.client.call(buildCall(this.binding, part));
      } catch (error) {
        if (!(error instanceof InterfaceError)) throw error;
        const observed = this.ctx.gate.observe(error.context.headers);
        if (observed) await observed;
        if (await this.again(error)) continue;
        await this.onError(part, error);
        return this.result;
      }
      const observed = this.ctx.gate.observe(answer.headers);
      if (observed) await observed;
      this.onAnswer(part, answer);
      return this.result;
    }
  }

  /** A 429: the whole delivery waits as told, then the same part goes again. */
  private async again(error: InterfaceError): Promise<boolean> {
    if (!(error instanceof RateLimitedError)) return false;
    markRateLimited(error.status, error.retryAfterMs);
    await this.ctx.gate.pause(error.retryAfterMs);
    if (error.status === 429) await this.ctx.gate.refused();
    this.calls -= 1;
    this.rateLimited += 1;
    return this.rateLimited < RATE_LIMITED_CALLS * this.ctx.budget;
  }

  private onAnswer(part: JobRequest, answer: CallResponse): void {
    const results = answer.status === 207 ? this.resultsOf(answer.body) : undefined;
    if (!results) {
      for (const item of part.items) this.result.confirmed.push(item);
      return;
    }
    const unknown: StateItem[] = [];
    for (const item of part.items) {
      const r = results.get(item.key);
      if (!r) unknown.push(item);
      else if (r.ok) this.result.confirmed.push(item);
      else this.result.refused.push(itemRefusal(part, item, r));
    }
    if (unknown.length > 0) {
      // A 207 that leaves items out: nothing says they applied; send them again later.
      this.result.deferred.push({
        request: subRequest(part, unknown),
        status: 207,
        errorCode: 'FERRY_HTTP_TRANSIENT',
        message: `${part.operationId}: the answer (207) had no result for ${unknown.length} item(s)`,
      });
    }
  }

  /** An answer's per-item results, under the names the binding's answers give them. */
  private resultsOf(body: unknown): Map<string, ItemResult> | undefined {
    return itemResults(body, this.binding.answers, this.binding.keyField);
  }

  private async onError(part: JobRequest, error: InterfaceError): Promise<void> {
    const failure = failureOf(error, this.binding.answers);
    if (error.retryable) {
      this.result.deferred.push({ request: part, ...failure });
      return;
    }
    const reason = platformRefusal(error, this.binding.path, this.binding.operation.method);
    if (reason) {
      this.result.held.push({ request: part, reason, ...failure });
      return;
    }
    const splittable =
      part.items.length > 1 &&
      (error instanceof PayloadTooLargeError ||
        (error instanceof PermanentHttpError && SPLIT_STATUSES.has(error.status ?? 0)));
    if (!splittable) {
      this.result.refused.push({ request: part, items: part.items, ...failure });
      return;
    }
    const named = this.badItemsNamed(part, this.resultsOf(error.context.body));
    if (named.size === 0) {
      await this.splitAndSend(part);
      return;
    }
    // The answer names the bad items; nothing applied: refuse those, send the rest again.
    const bad = subRequest(
      part,
      part.items.filter((i) => named.has(i.key)),
    );
    for (const item of bad.items) {
      this.result.refused.push(itemRefusal(bad, item, named.get(item.key) as ItemResult));
    }
    const rest = part.items.filter((i) => !named.has(i.key));
    if (rest.length > 0) await this.send(subRequest(part, rest));
  }

  /** The items of the part an answer's per-item results name with an error status. */
  private badItemsNamed(
    part: JobRequest,
    results: Map<string, ItemResult> | undefined,
  ): Map<string, ItemResult> {
    const named = new Map<string, ItemResult>();
    if (!results) return named;
    for (const item of part.items) {
      const r = results.get(item.key);
      if (r && !r.ok) named.set(item.key, r);
    }
    return named;
  }

  private async splitAndSend(part: JobRequest): Promise<void> {
    const half = Math.ceil(part.items.length / 2);
    await this.send(subRequest(part, part.items.slice(0, half)));
    await this.send(subRequest(part, part.items.slice(half)));
  }
}

/** One request's outcome (no async frame of its own: it runs for every request). */
export function sendRequest(request: JobRequest, ctx: SendContext): Promise<SendResult> {
  return new RequestSender(ctx, ctx.binding(request.operationId)).send(request);
}
