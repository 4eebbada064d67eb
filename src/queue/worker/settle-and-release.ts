import { type Tally, type Lane, settleJob } from '../../runs/index.js';
import { releaseStage } from '../release-stage.js';
import type { DeliveryDeps } from './delivery-deps.js';

export interface SettlingJob {
  id: string;
  lane: Lane;
  runId: string;
  pipeline: string;
  stage: number;
  runTraceparent?: string | undefined;
}

/** Settles a job into its run; releases the next stage when it is due, finishes the run at its end. */
export async function settleAndRelease(
  deps: DeliveryDeps,
  job: SettlingJob,
  tally: Tally,
  deadLetters: number,
): Promise<void> {
  const settled = await settleJob(deps.redis, deps.keys, {
    runId: job.runId,
    pipeline: job.pipeline,
    jobId: job.id,
    stage: job.stage,
    tally,
    deadLetters,
  });
  if (settled.kind === 'next-stage') {
    await releaseStage(
      { redis: deps.redis, keys: deps.keys, queues: deps.queues, delivery: deps.config.delivery },
      { id: job.runId, pipeline: job.pipeline, lane: job.lane, traceparent: job.runTraceparent },
      settled.stage,
    );
  } else if (settled.kind === 'finished') {
    await deps.onRunFinished?.(job.runId);
  }
}
