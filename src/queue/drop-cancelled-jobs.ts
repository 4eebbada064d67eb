/**
 * The jobs of a cancelled run that no worker holds are dropped at once: those of stages not
 * released yet, and those waiting or delayed (a retry's backoff, a blocked pipeline) in the
 * lane's queue. Each is settled with its items counted `cancelled` (plus what its earlier
 * attempts delivered, which a retried job carries), so the run's counts add up (settled =
 * delivered + failed + stale + cancelled = planned) and the last job to settle ends the run
 * (settle-job.ts). A job a worker holds is left to finish: it settles itself. Idempotent (a job
 * settles once), so `ferry cancel`, the console and every worker's supervisor may all do it.
 */
import type { Job } from 'bullmq';
import type { RedisClient } from '../redis/index.js';
import {
  addToTally,
  type DeliveryJobData,
  type JobRequest,
  type Tally,
  decodeJobPayload,
  type DeliveryKeys,
  type Lane,
  queueJobId,
  settleJob,
  type SettleResult,
} from '../runs/index.js';
import type { DeliveryQueues } from './queues.js';

export interface DroppedJobs {
  /** Jobs settled as cancelled by this call. */
  dropped: number;
  /** Jobs of the run a worker still holds. */
  inFlight: number;
  /** Whether a settling of this call ended the run. */
  finished: boolean;
}

function cancelledTally(requests: readonly JobRequest[], tally: Tally): Tally {
  for (const r of requests) addToTally(tally, r.operationId, 'cancelled', r.items.length);
  return tally;
}

/** A run's job in its queue; jobs queued before their ids were scoped to their run have the plain id. */
async function queuedJob(
  queue: DeliveryQueues[Lane],
  runId: string,
  jobId: string,
): Promise<Job<DeliveryJobData> | undefined> {
  const job = (await queue.getJob(queueJobId(runId, jobId))) ?? (await queue.getJob(jobId));
  return job?.data.runId === runId ? job : undefined;
}

export async function dropCancelledJobs(
  redis: RedisClient,
  keys: DeliveryKeys,
  queues: DeliveryQueues,
  run: { id: string; pipeline: string; lane: Lane; stageCount: number; currentStage: number },
): Promise<DroppedJobs> {
  const out: DroppedJobs = { dropped: 0, inFlight: 0, finished: false };
  // Stages not released yet: their ids leave the lists (a releaser at work finds them empty).
  const unreleased = new Map<string, number>();
  for (let stage = 0; stage < run.stageCount; stage += 1) {
    const list = keys.runStage(run.id, stage);
    const [[, ids]] = ((await redis.multi().lrange(list, 0, -1).del(list).exec()) ?? [
      [null, []],
    ]) as [[unknown, string[]]];
    for (const id of ids ?? []) unreleased.set(id, stage);
  }
  const settle = async (
    jobId: string,
    stage: number,
    tally: Tally,
    deadLetters: number,
  ): Promise<void> => {
    const result: SettleResult = await settleJob(redis, keys, {
      runId: run.id,
      pipeline: run.pipeline,
      jobId,
      stage,
      tally,
      deadLetters,
    });
    if (result.kind !== 'duplicate') out.dropped += 1;
    if (result.kind === 'finished') out.finished = true;
  };
  // Every job not settled yet still has its payload in the run's payload hash.
  for (const jobId of await redis.hkeys(keys.runPayloads(run.id))) {
    const payload = await redis.hget(keys.runPayloads(run.id), jobId);
    if (payload === null) continue; // settled meanwhile
    const job = await queuedJob(queues[run.lane], run.id, jobId);
    if (!job) {
      // Not released, or released and gone from the queue unsettled (a job BullMQ lost track
      // of): a released stage is current, as the one before it settled whole.
      const stage = unreleased.get(jobId) ?? run.currentStage;
      await settle(jobId, stage, cancelledTally(decodeJobPayload(payload).requests, {}), 0);
      continue;
    }
    if ((await job.getState()) === 'active' || !(await removed(job))) {
      out.inFlight += 1;
      continue;
    }
    const data = job.data;
    const requests = data.requests ?? decodeJobPayload(payload).requests;
    const tally = cancelledTally(requests, structuredClone(data.tally ?? {}));
    await settle(jobId, data.stage, tally, data.deadLetters ?? 0);
  }
  return out;
}

/** Removes a job no worker holds; false when one took it meanwhile (its lock stops the removal). */
async function removed(job: Job<DeliveryJobData>): Promise<boolean> {
  try {
    await job.remove();
    return true;
  } catch {
    return false;
  }
}
