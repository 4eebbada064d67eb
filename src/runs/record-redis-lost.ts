/**
 * A run whose start Redis interrupted (restarted or failed over while it was planned or recorded):
 * once Redis answers again it is kept as a failed run saying where it stopped, off the active
 * runs, so `ferry runs` and the console tell the truth instead of showing nothing or a run that
 * never ends. Nothing of it was enqueued; the next run plans it all again.
 */
import { type RedisClient, RedisUnavailableError, redisWhere } from '../redis/index.js';
import type { DeliveryKeys, Lane } from './keys.js';
import { countRunEnd } from './metrics/metric-fields.js';
import { RETENTION_S } from './finish-run.js';
import { indexRun } from './run-index.js';
import type { RunKind, Trigger } from './run-record.js';

/** Where a run's start was when Redis went away. */
export type StartPhase = 'planning' | 'recording';

export interface InterruptedStart {
  runId: string;
  pipeline: string;
  lane: Lane;
  trigger: Trigger;
  createdAt: number;
  phase: StartPhase;
  file?: string;
  startedBy?: string;
  /** An undo's or a repair's (default sync). */
  kind?: RunKind;
}

const PHASE_WORDS: Record<StartPhase, string> = {
  planning: 'while it was planned',
  recording: 'while it was recorded',
};

/** How long the record waits for Redis to answer again before giving up on it. */
export const RECORD_WAIT_MS = 30_000;

export function redisLostReason(phase: StartPhase, cause: unknown): string {
  const why = (cause as NodeJS.ErrnoException)?.code ?? (cause as Error)?.name ?? 'error';
  return (
    `Redis stopped answering ${PHASE_WORDS[phase]} (${why}): nothing was enqueued or sent. ` +
    'Start the run again once Redis answers.'
  );
}

/** Records the run as failed with the reason; false when Redis did not answer within the wait. */
export async function recordRedisLost(
  redis: RedisClient,
  keys: DeliveryKeys,
  run: InterruptedStart,
  reason: string,
): Promise<boolean> {
  const now = Date.now();
  const fields: Record<string, string | number> = {
    id: run.runId,
    pipeline: run.pipeline,
    kind: run.kind ?? 'sync',
    trigger: run.trigger,
    lane: run.lane,
    status: 'failed',
    reason,
    createdAt: run.createdAt,
    finishedAt: now,
  };
  if (run.file) fields.file = run.file;
  if (run.startedBy) fields.startedBy = run.startedBy;
  const record = keys.run(run.runId);
  // Whether or not the interrupted transaction ran: the run ends failed and inactive either way.
  const multi = redis
    .multi()
    .hsetnx(record, 'version', 0)
    .hsetnx(record, 'rows', 0)
    .hsetnx(record, 'rejected', 0)
    .hsetnx(record, 'stages', '[]')
    .hset(record, fields)
    .expire(record, RETENTION_S)
    .srem(keys.activeRuns, run.runId);
  countRunEnd(multi, keys.metrics, {
    pipeline: run.pipeline,
    status: 'failed',
    kind: run.kind ?? 'sync',
  });
  const written = indexRun(multi, keys, { id: run.runId, pipeline: run.pipeline }, now)
    .exec()
    .then(() => true);
  const gaveUp = new Promise<false>((resolve) =>
    setTimeout(() => resolve(false), RECORD_WAIT_MS).unref(),
  );
  return await Promise.race([written, gaveUp]).catch(() => false);
}

/** The error a run's start ends with when Redis went away: exit code 5, the run's id and phase. */
export function startInterrupted(
  redisUrl: string,
  run: InterruptedStart,
  recorded: boolean,
  cause: unknown,
): RedisUnavailableError {
  return new RedisUnavailableError(
    redisWhere(redisUrl),
    `run ${run.runId} of pipeline "${run.pipeline}" stopped ${PHASE_WORDS[run.phase]}: nothing ` +
      `was enqueued or sent${recorded ? ' (recorded as failed, `ferry runs` shows it)' : ''}`,
    { cause },
    { runId: run.runId, phase: run.phase },
  );
}
