/**
 * The owner's end of one serving process's channel: each write request goes through the steps
 * that touch shared state (rate limit, idempotency, fault draw, the write, the counters, the log)
 * in the order one process takes them (handle-interface.ts), and is answered in a word: which of
 * its planned outcomes applied, or the answer to send. Parsing, authentication, validation and the
 * answers' JSON stay in the serving process.
 */
import type { Socket } from 'node:net';
import type { SimContext } from './context.js';
import { drawFaults, type FaultDraw } from './fault-draw.js';
import { errorResponse, type SimResponse } from './http-io.js';
import { LineChannel } from './line-channel.js';
import type { Reply, ServingSettings, ToOwner, ToServing, WriteRequest } from './owner-messages.js';
import { applyPlan } from './write-plan.js';
import { admissionAnswer, countApplied, executeWrite, takeRate } from './write-steps.js';

interface Admitted {
  request: WriteRequest;
  draw: FaultDraw;
  at: number;
  headers: Record<string, string> | undefined;
}

export class OwnerChannel {
  private readonly channel: LineChannel<ToServing, ToOwner>;
  /** Requests admitted and waiting out their latency in the serving process. */
  private readonly waiting = new Map<number, Admitted>();

  constructor(
    private readonly ctx: SimContext,
    socket: Socket,
    private readonly settings: () => ServingSettings,
  ) {
    this.channel = new LineChannel(socket, (message) => this.receive(message));
    // A serving process gone: its requests in flight were never answered, their keys are free.
    socket.on('close', () => {
      for (const { request } of this.waiting.values()) {
        if (request.key) ctx.idempotency.abandon(request.key);
      }
      this.waiting.clear();
    });
    socket.on('error', () => socket.destroy());
    this.announceSettings();
  }

  announceSettings(): void {
    this.channel.send({ settings: this.settings() });
  }

  private receive(message: ToOwner): void {
    if ('go' in message) {
      const admitted = this.waiting.get(message.id);
      if (!admitted) return;
      this.waiting.delete(message.id);
      this.channel.send(this.execute(admitted));
      return;
    }
    this.channel.send(this.admit(message));
  }

  private admit(request: WriteRequest): Reply {
    const { ctx } = this;
    const id = request.id;
    if (request.version !== this.settings().version) return { id, replan: true };
    ctx.stats.request(request.operationId);
    const draw = drawFaults(ctx.random, ctx.faults, true);
    const at = ctx.clock();
    const rate = takeRate(ctx, request.items, at);
    const headers = rate?.headers;
    const early =
      rate?.refused ??
      (request.key ? admissionAnswer(ctx, request.key, request.fingerprint) : undefined);
    if (early) {
      this.log(request, at, early.status);
      return { id, headers, answer: early, wait: draw.latencyMs };
    }
    const admitted = { request, draw, at, headers };
    if (draw.latencyMs <= 0) return this.execute(admitted);
    this.waiting.set(id, admitted);
    return { id, headers, wait: draw.latencyMs };
  }

  private execute({ request, draw, at, headers }: Admitted): Reply {
    const { ctx } = this;
    const id = request.id;
    if (draw.failStatus !== null || draw.reset) {
      if (request.key) ctx.idempotency.abandon(request.key);
      if (draw.failStatus === null) {
        ctx.stats.fault('reset');
        this.log(request, at, 0);
        return { id, headers, destroy: true };
      }
      ctx.stats.fault('failed');
      this.log(request, at, draw.failStatus);
      const answer = errorResponse(draw.failStatus, 'INTERNAL', 'injected failure (fail-rate)');
      return { id, headers, answer };
    }
    let response: SimResponse;
    let chosen: 'then' | 'otherwise' | undefined;
    if (request.plan) {
      const outcome = applyPlan(ctx.state, request.plan);
      chosen = outcome === request.plan.then ? 'then' : 'otherwise';
      countApplied(ctx, request.key, outcome, request.fingerprint);
      response = outcome.response;
    } else {
      const match = ctx.router(request.method, request.pathname)!;
      const wctx = { state: ctx.state, rejectKeys: ctx.rejectKeys, rules: ctx.itemRules };
      const query = new URLSearchParams(request.search);
      const outcome = executeWrite(match, request.body, query, wctx, true);
      countApplied(ctx, request.key, outcome, request.fingerprint);
      response = outcome.response;
    }
    if (request.key) ctx.idempotency.complete(request.key, response);
    if (draw.applyThenFail) {
      ctx.stats.fault('appliedThenFailed');
      this.log(request, at, 0);
      return { id, headers, destroy: true };
    }
    this.log(request, at, response.status);
    return chosen ? { id, headers, chosen } : { id, headers, answer: response };
  }

  private log(request: WriteRequest, at: number, status: number): void {
    this.ctx.stats.record({
      at,
      operationId: request.operationId,
      method: request.method,
      path: request.path,
      idempotencyKey: request.key,
      status,
      items: request.items,
      ...(request.traceparent ? { traceparent: request.traceparent } : {}),
    });
  }
}
