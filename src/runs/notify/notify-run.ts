/**
 * What a run's ending tells the pipeline's webhooks (`notify: [{url, on}]`): `succeeded` (every
 * item delivered), `dead_letters` (some were dead-lettered), `failed` (cancelled, or a schedule's
 * tick refused by an error), `guard_stopped` (the mass-delete guard stopped it); and, while it
 * goes on, `blocked` (the platform refuses every request: worker/breaker.ts) and `late` (its
 * forecast ends after the pipeline's `window`); before it, `contract_changed` (the platform's
 * description differs from the pinned one). The body is a small summary, never a payload or a
 * secret; each (run, event, webhook) is queued once.
 */
import type { Logger } from 'pino';
import type { FerryConfig } from '../../config/index.js';
import { isFerryError } from '../../errors/index.js';
import {
  loadPipeline,
  type NotifyEvent,
  type PipelineDefinition,
  windowEnd,
} from '../../pipeline/index.js';
import type { RedisClient } from '../../redis/index.js';
import type { DeliveryKeys } from '../keys.js';
import { forecastRun } from '../forecast.js';
import { itemTotals, parseRun, type RunContract, type RunRecord } from '../run-record.js';
import { openNotifyQueue } from './notify-queue.js';

export interface NotifyContext {
  config: FerryConfig;
  redis: RedisClient;
  keys: DeliveryKeys;
  logger: Logger;
}

/** The events a run that ended (or a tick that was skipped) gives. */
export function eventsOf(run: RunRecord): NotifyEvent[] {
  const events: NotifyEvent[] = [];
  if (run.status === 'succeeded') events.push('succeeded');
  if (run.deadLetters > 0) events.push('dead_letters');
  if (run.status === 'cancelled') events.push('failed');
  // A tick refused by an error (the guard's stop is told by startRun, as guard_stopped).
  if (
    run.status === 'skipped' &&
    run.reason?.startsWith('FERRY_') &&
    !run.reason.startsWith('FERRY_MASS_DELETE_GUARD')
  ) {
    events.push('failed');
  }
  return events;
}

export function runSummary(run: RunRecord, event: NotifyEvent): Record<string, unknown> {
  const items = itemTotals(run.operations);
  return {
    event,
    pipeline: run.pipeline,
    runId: run.id,
    status: run.status,
    trigger: run.trigger,
    ...(run.startedBy ? { startedBy: run.startedBy } : {}),
    startedAt: new Date(run.createdAt).toISOString(),
    ...(run.finishedAt ? { finishedAt: new Date(run.finishedAt).toISOString() } : {}),
    items: { planned: items.planned, delivered: items.delivered, failed: items.failed },
    rejected: run.rejected,
    deadLetters: run.deadLetters,
    ...(run.reason ? { reason: run.reason } : {}),
  };
}

/** The pipeline's definition; none for a file that does not load (that says so elsewhere). */
function loaded(ctx: NotifyContext, pipeline: string): PipelineDefinition | undefined {
  try {
    return loadPipeline(pipeline, ctx.config);
  } catch (error) {
    if (!isFerryError(error)) throw error;
    return undefined;
  }
}

/** Queues the webhooks of `pipeline` that asked for `event`, with `body`; `id` makes it once. */
export async function notify(
  ctx: NotifyContext,
  pipeline: string,
  event: NotifyEvent,
  id: string,
  body: Record<string, unknown>,
): Promise<number> {
  const hooks = (loaded(ctx, pipeline)?.notify ?? []).filter((h) => h.on.includes(event));
  if (hooks.length === 0) return 0;
  const queue = openNotifyQueue(ctx.redis, ctx.keys);
  try {
    const text = JSON.stringify(body);
    await Promise.all(
      hooks.map((hook, i) =>
        queue.add(
          'webhook',
          { url: hook.url, event, body: text },
          {
            jobId: `${id}-${event}-${i}`,
            attempts: ctx.config.notifications.attempts,
            backoff: { type: 'exponential', delay: 1_000 },
            removeOnComplete: 1_000,
            removeOnFail: 5_000,
          },
        ),
      ),
    );
  } finally {
    await queue.close();
  }
  return hooks.length;
}

/** Queues what a run's ending tells its pipeline's webhooks. */
export async function notifyRunEnded(ctx: NotifyContext, run: RunRecord): Promise<void> {
  for (const event of eventsOf(run)) {
    await notify(ctx, run.pipeline, event, run.id, runSummary(run, event));
  }
}

/** Queues `blocked` for a run whose delivery the breaker paused (once per blocking). */
export async function notifyRunBlocked(ctx: NotifyContext, run: RunRecord): Promise<void> {
  const at = (await ctx.redis.hget(ctx.keys.run(run.id), 'blockedAt')) ?? String(Date.now());
  const summary = { ...runSummary(run, 'blocked'), reason: run.blockedReason ?? '' };
  await notify(ctx, run.pipeline, 'blocked', `${run.id}-${at}`, summary);
}

/** Queues `contract_changed`: the description differs from the pin (once per pipeline and hash). */
export async function notifyContractChanged(
  ctx: NotifyContext,
  pipeline: string,
  contract: RunContract,
): Promise<void> {
  await notify(ctx, pipeline, 'contract_changed', `contract-${contract.sha256.slice(0, 16)}`, {
    event: 'contract_changed',
    pipeline,
    pinned: contract.pinned,
    sha256: contract.sha256,
    breaking: contract.breaking,
    nonBreaking: contract.nonBreaking,
    changes: contract.changes.slice(0, 20),
    command: 'ferry interface diff',
  });
}

/**
 * Queues `late` for a running sync run whose forecast ends after its pipeline's window, as soon
 * as it does, once per run (the run's `lateAt` field is claimed first; every worker's
 * housekeeping asks every few seconds). A run with no rate measured yet is not judged; one that
 * answered nothing over the last minute (no finish in sight) is late. True when it was queued.
 */
export async function notifyIfLate(
  ctx: NotifyContext,
  runId: string,
  now: number,
): Promise<boolean> {
  const key = ctx.keys.run(runId);
  const [pipeline, kind, status, lateAt] = await ctx.redis.hmget(
    key,
    'pipeline',
    'kind',
    'status',
    'lateAt',
  );
  const notSync = kind === 'replay' || kind === 'export';
  if (!pipeline || notSync || status !== 'running' || lateAt) return false;
  const window = loaded(ctx, pipeline)?.window;
  if (!window) return false;
  const run = parseRun(await ctx.redis.hgetall(key));
  const forecast = run && forecastRun(run, now);
  if (!run || forecast?.requestsPerSecond === undefined) return false;
  const end = windowEnd(window, run.createdAt);
  if (forecast.finishAt !== undefined && Date.parse(forecast.finishAt) <= end) return false;
  if ((await ctx.redis.hsetnx(key, 'lateAt', now)) === 0) return false;
  const summary = {
    ...runSummary(run, 'late'),
    forecast,
    window: { ...window, end: new Date(end).toISOString() },
  };
  await notify(ctx, pipeline, 'late', runId, summary);
  ctx.logger.warn(
    { runId, pipeline, finishAt: forecast.finishAt, windowEnd: summary.window.end },
    "the run is forecast to end after its pipeline's window",
  );
  return true;
}
