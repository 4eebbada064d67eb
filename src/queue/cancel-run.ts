/**
 * Cancelling a run, for an operator who finds mid-delivery that it must not go on (a wrong
 * export, say): nothing more of it is sent, what the platform confirmed stays committed (so the
 * next run sends only the rest), and the pipeline is freed only once no job of the run is in
 * flight, so a later run's request for an item never races one of this run's still on the wire.
 *
 *   running (or blocked) -> cancelling: no job of the run starts sending (job-work.ts reads the
 *     status); its jobs not started are dropped at once, their items counted `cancelled`
 *     (drop-cancelled-jobs.ts); jobs in flight finish and still count (settle-job.ts);
 *   -> cancelled when the last job in flight settles (the settle script ends the run and frees
 *     the pipeline), and the run is finished like any other (finish-run.ts).
 * One call is enough: if the caller stops waiting (the console answers within seconds), every
 * worker's supervisor drops what is left and ends the run (worker/supervisor.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type RedisClient, runScript } from '../redis/index.js';
import {
  createDeadLetterStore,
  RunFinishedError,
  LANES,
  type DeliveryKeys,
  finishRun,
  isFinished,
  parseRun,
  type RunRecord,
  type RunStatus,
  notifyRunEnded,
  type NotifyContext,
  buildRunReport,
  loadRun,
  type RunReport,
} from '../runs/index.js';
import { openQueues, type DeliveryQueues } from './queues.js';
import { resumeDelivery } from './worker/breaker.js';
import { dropCancelledJobs } from './drop-cancelled-jobs.js';
import { BEGIN_CANCEL } from './scripts/begin-cancel.js';
import { FINALIZE_CANCEL } from './scripts/finalize-cancel.js';

const POLL_MS = 100;
export const CANCEL_TIMEOUT_MS = 120_000;

export interface CancelRunOptions {
  redis: RedisClient;
  keys: DeliveryKeys;
  /** Where the cancelled run's report is written (delivery.reportsDir). */
  reportsDir: string;
  runId: string;
  /** Only say what cancelling would do. */
  dryRun?: boolean;
  /** How long to wait for the run's jobs in flight. */
  timeoutMs?: number;
  /** Called while waiting, with how many of the run's jobs are still in flight. */
  onWaiting?: (inFlight: number) => void;
  /** Stops the wait (Ctrl-C): the run stays `cancelling`. */
  signal?: AbortSignal;
  /** Who tells the pipeline's webhooks (`failed`) once the run is cancelled. */
  notify: NotifyContext;
}

export interface CancelOutcome {
  runId: string;
  pipeline: string;
  dryRun: boolean;
  /** The run's status now: `cancelled`, `cancelling` when the wait timed out, or as it was. */
  status: RunStatus;
  /** Jobs of the run not settled, when it was cancelled (a dry run: now). */
  unsettledJobs: number;
  /** Jobs of the run a worker still runs (0 once cancelled). */
  inFlight: number;
  /** The run's report: final once cancelled, else as it stands. */
  report: RunReport;
}

/** Jobs of the run a worker holds. */
export async function inFlightJobs(queues: DeliveryQueues, runId: string): Promise<number> {
  let n = 0;
  for (const lane of LANES) {
    for (const job of await queues[lane].getActive()) if (job.data.runId === runId) n += 1;
  }
  return n;
}

/**
 * Drops what a cancelling run has not started and, once none of its jobs is in flight, makes
 * sure it ended (the last settle normally did). Returns the jobs still in flight.
 */
export async function advanceCancel(
  redis: RedisClient,
  keys: DeliveryKeys,
  queues: DeliveryQueues,
  run: RunRecord,
): Promise<{ inFlight: number; ended: boolean }> {
  const dropped = await dropCancelledJobs(redis, keys, queues, {
    id: run.id,
    pipeline: run.pipeline,
    lane: run.lane,
    stageCount: run.stages.length,
    currentStage: run.currentStage,
  });
  if (dropped.finished) return { inFlight: 0, ended: true };
  const inFlight = await inFlightJobs(queues, run.id);
  if (inFlight > 0 || dropped.inFlight > 0)
    return { inFlight: Math.max(inFlight, dropped.inFlight), ended: false };
  const ended = await runScript(
    redis,
    FINALIZE_CANCEL,
    {
      run: keys.run(run.id),
      activeRun: keys.activeRun(run.pipeline),
      activeRuns: keys.activeRuns,
      metrics: keys.metrics,
    },
    { runId: run.id, now: Date.now() },
  );
  return {
    inFlight: 0,
    ended: ended || (await loadRun(redis, keys, run.id)).status === 'cancelled',
  };
}

export async function cancelRun(options: CancelRunOptions): Promise<CancelOutcome> {
  const { redis, keys, runId } = options;
  const dlq = createDeadLetterStore(redis, keys);
  const run = await loadRun(redis, keys, runId);
  if (isFinished(run)) throw new RunFinishedError(runId, run.status);
  const queues = openQueues(redis, keys);
  try {
    const outcome = {
      runId,
      pipeline: run.pipeline,
      dryRun: options.dryRun === true,
      unsettledJobs: run.pending.reduce((n, p) => n + p, 0),
    };
    if (options.dryRun) {
      return {
        ...outcome,
        status: run.status,
        inFlight: await inFlightJobs(queues, runId),
        report: await buildRunReport(redis, keys, dlq, runId),
      };
    }
    if (!(await runScript(redis, BEGIN_CANCEL, { run: keys.run(runId) }, { now: Date.now() }))) {
      const now = await loadRun(redis, keys, runId);
      if (isFinished(now)) throw new RunFinishedError(runId, now.status); // it ended meanwhile
    }
    // A blocked pipeline's breaker goes with the run it blocked.
    await resumeDelivery(redis, keys, run.pipeline, runId, 'reset');
    const deadline = Date.now() + (options.timeoutMs ?? CANCEL_TIMEOUT_MS);
    let step = await advanceCancel(redis, keys, queues, run);
    while (!step.ended && Date.now() < deadline && !options.signal?.aborted) {
      options.onWaiting?.(step.inFlight);
      await sleep(POLL_MS);
      const now = await loadRun(redis, keys, runId);
      step = isFinished(now)
        ? { inFlight: 0, ended: true }
        : await advanceCancel(redis, keys, queues, now);
    }
    if (!step.ended) {
      return {
        ...outcome,
        status: 'cancelling',
        inFlight: step.inFlight,
        report: await buildRunReport(redis, keys, dlq, runId),
      };
    }
    const report = await finishRun(redis, keys, dlq, runId, options.reportsDir);
    const ended = parseRun(await redis.hgetall(keys.run(runId)));
    if (ended) await notifyRunEnded(options.notify, ended);
    return { ...outcome, status: report.status, inFlight: 0, report };
  } finally {
    await queues.close();
  }
}
