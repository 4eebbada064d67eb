/**
 * Settling a job: its outcome counts go into the run, its stage's pending count goes down, and
 * when the stage is settled the next stage with jobs is due (or the run is finished). One Lua
 * script, so it is atomic, and idempotent: a job settles once (a set of settled job ids), however
 * often it is processed (a stalled job taken over after its worker died, say).
 */
import { type RedisClient, runScript } from '../redis/index.js';
import { COUNT_PROGRESS } from './scripts/count-progress.js';
import { SETTLE_JOB, type SettleResult } from './scripts/settle-job.js';
import { tallyTotal, type Tally } from './job-data.js';
import type { DeliveryKeys } from './keys.js';

export interface SettleInput {
  runId: string;
  pipeline: string;
  jobId: string;
  stage: number;
  tally: Tally;
  deadLetters: number;
}

export function tallyFields(tally: Tally, deadLetters: number): (string | number)[] {
  const fields: (string | number)[] = [];
  for (const [operationId, row] of Object.entries(tally)) {
    for (const [outcome, n] of Object.entries(row)) {
      if (n) fields.push(`op:${operationId}:${outcome}`, n);
    }
  }
  const failed = tallyTotal(tally, 'failed');
  if (failed) fields.push('total:failed', failed);
  if (deadLetters) fields.push('deadLetters', deadLetters);
  return fields;
}

/** The keys a job's counts go to: its run, the settled and counted sets, the metrics. */
function countingKeys(keys: DeliveryKeys, runId: string, now: number) {
  return {
    run: keys.run(runId),
    settled: keys.runSettled(runId),
    counted: keys.runCounted(runId),
    metrics: keys.metrics,
    throughput: keys.throughput(Math.floor(now / 60_000)),
  };
}

export async function settleJob(
  redis: RedisClient,
  keys: DeliveryKeys,
  input: SettleInput,
): Promise<SettleResult> {
  const now = Date.now();
  return await runScript(
    redis,
    SETTLE_JOB,
    {
      ...countingKeys(keys, input.runId, now),
      activeRun: keys.activeRun(input.pipeline),
      activeRuns: keys.activeRuns,
      payloads: keys.runPayloads(input.runId),
    },
    {
      jobId: input.jobId,
      stage: input.stage,
      now,
      runId: input.runId,
      pipeline: input.pipeline,
      fields: tallyFields(input.tally, input.deadLetters),
    },
  );
}

/**
 * Counts a part of a job still under way into its run (COUNT_PROGRESS): what it delivered or
 * found stale so far, which its settle then does not count again. False when the run is over or
 * the job settled.
 */
export async function countProgress(
  redis: RedisClient,
  keys: DeliveryKeys,
  input: Omit<SettleInput, 'stage' | 'deadLetters'>,
): Promise<boolean> {
  const fields = tallyFields(input.tally, 0);
  if (fields.length === 0) return false;
  const now = Date.now();
  return await runScript(redis, COUNT_PROGRESS, countingKeys(keys, input.runId, now), {
    jobId: input.jobId,
    now,
    pipeline: input.pipeline,
    fields,
  });
}
