/**
 * `ferry resume RUN` and the console's resume: a run the breaker blocked (worker/breaker.ts)
 * sends again at once, without waiting for the next probe. If the platform still refuses
 * everyone, the next refusal blocks it again (the streak is kept; an answer that passes ends it).
 */
import type { RedisClient } from '../redis/index.js';
import { RunNotBlockedError, type DeliveryKeys, loadRun } from '../runs/index.js';
import { resumeDelivery } from '../queue/index.js';

export interface ResumeOutcome {
  runId: string;
  pipeline: string;
  status: 'running';
  /** Why it was blocked. */
  blockedReason?: string;
}

export async function resumeRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  runId: string,
): Promise<ResumeOutcome> {
  const run = await loadRun(redis, keys, runId);
  if (run.status !== 'blocked') throw new RunNotBlockedError(runId, run.status);
  await resumeDelivery(redis, keys, run.pipeline, runId, 'keep');
  const out: ResumeOutcome = { runId, pipeline: run.pipeline, status: 'running' };
  if (run.blockedReason) out.blockedReason = run.blockedReason;
  return out;
}
