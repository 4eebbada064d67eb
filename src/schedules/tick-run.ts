/** One run of a tick: started, or recorded as skipped with the reason it could not start. */
import type { Logger } from 'pino';
import type { FerryConfig } from '../config/index.js';
import { isFerryError, type FerryError } from '../errors/index.js';
import type { RedisClient } from '../redis/index.js';
import {
  ContractBreakingError,
  RunActiveError,
  type DeliveryKeys,
  recordUnstartedRun,
  parseRun,
  notifyRunEnded,
} from '../runs/index.js';
import { laneOf, startRun } from '../orchestrate/index.js';
import { MassDeleteGuardError } from '../pipeline/index.js';
import { runExport } from '../export/index.js';

export interface TickContext {
  config: FerryConfig;
  redis: RedisClient;
  keys: DeliveryKeys;
  pipeline: string;
  /** The tick's time, and how late it ran when that is worth saying. */
  timing: { scheduledAt: number; lateSeconds?: number };
  logger: Logger;
  /** Aborted when the worker stops: following a run ends, the run goes on. */
  signal: AbortSignal;
}

/** Why a run could not start, as a skipped run says it. */
export function skipReason(error: FerryError): string {
  return error instanceof RunActiveError
    ? `the previous run ${String(error.details.runId)} is still going`
    : `${error.code}: ${error.message}`;
}

export async function recordSkip(ctx: TickContext, reason: string): Promise<string> {
  const runId = await recordUnstartedRun(
    ctx.redis,
    ctx.keys,
    {
      pipeline: ctx.pipeline,
      lane: laneOf(ctx.config, ctx.pipeline),
      trigger: 'schedule',
      reason,
      ...ctx.timing,
    },
    'skipped',
  );
  ctx.logger.warn({ runId, reason }, 'scheduled run skipped');
  const skipped = parseRun(await ctx.redis.hgetall(ctx.keys.run(runId)));
  if (skipped) await notifyRunEnded(ctx, skipped);
  return runId;
}

/**
 * Starts the tick's run (of `file`, shown as `sourceName`, or the pipeline's own source); returns
 * its id, or the error that stopped it after recording the skipped run.
 */
export async function startOrSkip(
  ctx: TickContext,
  file?: string,
  sourceName = file,
): Promise<{ runId: string } | { refused: FerryError }> {
  try {
    const started = await startRun({
      config: ctx.config,
      redis: ctx.redis,
      logger: ctx.logger,
      pipeline: ctx.pipeline,
      ...(file ? { source: { file, ...(sourceName ? { name: sourceName } : {}) } } : {}),
      ...(sourceName ? { sourceName } : {}),
      trigger: 'schedule',
      ...ctx.timing,
    });
    ctx.logger.info({ runId: started.runId, file, ...ctx.timing }, 'scheduled run started');
    return { runId: started.runId };
  } catch (error) {
    if (!isFerryError(error)) throw error;
    // startRun recorded the guard's stop (guard_stopped) or the contract's refusal (failed) itself.
    const recorded =
      (error instanceof MassDeleteGuardError || error instanceof ContractBreakingError) &&
      error.details.runId !== undefined;
    if (!recorded) await recordSkip(ctx, skipReason(error));
    return { refused: error };
  }
}

/**
 * The tick of an export pipeline: an export run (src/export), recorded as a run like any other
 * (failed with its reason when the platform refused or a file could not be written); a tick
 * while the previous export is still going is a skipped run.
 */
export async function exportOrSkip(ctx: TickContext): Promise<void> {
  try {
    const done = await runExport({
      config: ctx.config,
      redis: ctx.redis,
      logger: ctx.logger,
      pipeline: ctx.pipeline,
      trigger: 'schedule',
      ...ctx.timing,
      signal: ctx.signal,
    });
    ctx.logger.info({ runId: done.runId, status: done.status }, 'scheduled export ran');
  } catch (error) {
    if (!isFerryError(error)) throw error;
    await recordSkip(ctx, skipReason(error));
  }
}
