/**
 * Housekeeping every worker process does now and then, so that no process is indispensable:
 * - a run whose current stage was not fully released (the releasing process died) is released;
 * - a cancelling run's jobs that no worker holds are dropped, and the run ends once none is in
 *   flight (runs/cancel-run.ts), whoever asked for the cancel and whether they still wait;
 * - a blocked pipeline gets a probe every `delivery.breaker.probeSeconds` (breaker.ts);
 * - a job BullMQ failed without the worker settling it (it stalled too often because its workers
 *   kept dying, or kept throwing) is dead-lettered with what it still carried, and settled;
 * - a running run forecast to end after its pipeline's window notifies `late` (once).
 * All are idempotent, so several supervisors may race.
 */
import type { Job } from 'bullmq';
import { buildDeadLetter } from '../dlq/build-dead-letter.js';
import {
  type DeadLetter,
  addToTally,
  type DeliveryJobData,
  type Tally,
  LANES,
  type Lane,
  notifyIfLate,
  parseRun,
  runJobId,
} from '../../runs/index.js';
import { advanceCancel } from '../cancel-run.js';
import { releaseStage } from '../release-stage.js';
import { grantProbe } from './breaker.js';
import { bindingOf, type DeliveryDeps } from './delivery-deps.js';
import { jobWork } from './job-work.js';
import { settleAndRelease } from './settle-and-release.js';

const FAILED_BATCH = 100;

async function releaseDueStages(deps: DeliveryDeps): Promise<void> {
  const { redis, keys } = deps;
  for (const runId of await redis.smembers(keys.activeRuns)) {
    const [status, current, released, lane, pipeline] = await redis.hmget(
      keys.run(runId),
      'status',
      'currentStage',
      'releasedStage',
      'lane',
      'pipeline',
    );
    if (status === 'cancelling') {
      await endCancelledRun(deps, runId);
      continue;
    }
    if (status === 'blocked') {
      await grantProbe(redis, keys, pipeline ?? '', deps.config.delivery.breaker.probeSeconds);
    }
    if (status !== 'running' || Number(released ?? -1) >= Number(current ?? 0)) continue;
    await releaseStage(
      { redis, keys, queues: deps.queues, delivery: deps.config.delivery },
      {
        id: runId,
        pipeline: pipeline ?? '',
        lane: lane === 'interactive' ? 'interactive' : 'bulk',
      },
      Number(current ?? 0),
    );
  }
}

async function endCancelledRun(deps: DeliveryDeps, runId: string): Promise<void> {
  const run = parseRun(await deps.redis.hgetall(deps.keys.run(runId)));
  if (!run || run.status !== 'cancelling') return;
  const { ended } = await advanceCancel(deps.redis, deps.keys, deps.queues, run);
  if (ended) await deps.onRunFinished?.(runId);
}

async function deadLetterFailedJob(
  deps: DeliveryDeps,
  lane: Lane,
  job: Job<DeliveryJobData>,
): Promise<void> {
  const data = job.data;
  const jobId = runJobId(job);
  const work = await jobWork(deps.redis, deps.keys, jobId, data);
  const requests = 'payload' in work ? work.payload.requests : [];
  const tally: Tally = structuredClone(data.tally ?? {});
  const now = Date.now();
  const reason = job.failedReason || 'the job failed';
  const entries: DeadLetter[] = requests.map((request) =>
    buildDeadLetter(
      {
        runId: data.runId,
        pipeline: data.pipeline,
        jobId,
        attempts: job.attemptsMade,
        idempotencyHeader: deps.config.interface.idempotencyHeader,
      },
      bindingOf(deps, request.operationId),
      request,
      { errorCode: 'FERRY_DELIVERY_FAILED', message: `delivery job failed: ${reason}` },
      now,
    ),
  );
  await deps.dlq.add(entries);
  for (const e of entries) addToTally(tally, e.operationId, 'failed', e.items.length);
  if (entries.length > 0) {
    deps.logger.warn(
      { runId: data.runId, jobId, lane, requests: requests.length, reason },
      'delivery job failed outside the worker; its requests were dead-lettered',
    );
  }
  const deadLetters = (data.deadLetters ?? 0) + entries.length;
  await settleAndRelease(deps, { ...data, id: jobId, lane }, tally, deadLetters);
  await job.remove().catch(() => undefined); // another supervisor may have removed it
}

async function notifyLateRuns(deps: DeliveryDeps): Promise<void> {
  const { config, redis, keys, logger } = deps;
  for (const runId of await redis.smembers(keys.activeRuns)) {
    await notifyIfLate({ config, redis, keys, logger }, runId, Date.now());
  }
}

export async function superviseOnce(deps: DeliveryDeps): Promise<void> {
  await releaseDueStages(deps);
  await notifyLateRuns(deps);
  for (const lane of LANES) {
    const failed = await deps.queues[lane].getFailed(0, FAILED_BATCH - 1);
    for (const job of failed) await deadLetterFailedJob(deps, lane, job);
  }
}

export function startSupervisor(deps: DeliveryDeps, intervalMs: number): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = superviseOnce(deps)
      .catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'delivery housekeeping failed; it will run again'),
      )
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
