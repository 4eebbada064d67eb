import { type RedisClient, runScript } from '../../redis/index.js';
import {
  type DeliveryJobData,
  type JobPayload,
  decodeJobPayload,
  type DeliveryKeys,
} from '../../runs/index.js';
import { JOB_WORK } from '../scripts/job-work.js';

export type JobWork =
  | { kind: 'none' }
  | { kind: 'blocked' }
  | {
      kind: 'send' | 'probe' | 'cancelled';
      payload: JobPayload;
      /** The normalised base URL the run was planned for; undefined for a run recorded before. */
      platform: string | undefined;
    };

/**
 * What a job has to deliver: the requests its data carries (a retried job), else its payload in
 * the run's payload hash; or why it sends nothing: the run is over or the job settled already
 * (it was processed before, by a worker that died before BullMQ heard of it), the pipeline is
 * blocked, the run is being cancelled; and the platform its run was planned for. One round trip.
 */
export async function jobWork(
  redis: RedisClient,
  keys: DeliveryKeys,
  jobId: string,
  data: DeliveryJobData,
): Promise<JobWork> {
  const { code, payload, platform } = await runScript(
    redis,
    JOB_WORK,
    {
      run: keys.run(data.runId),
      settled: keys.runSettled(data.runId),
      payloads: keys.runPayloads(data.runId),
      breaker: keys.breaker(data.pipeline),
    },
    { jobId, withPayload: data.requests ? 0 : 1 },
  );
  if (code === 'none' || code === 'blocked') return { kind: code };
  const runPlatform = platform === '' ? undefined : platform;
  if (data.requests) {
    const work: JobPayload = { requests: data.requests };
    if (data.replayOf) work.replayOf = data.replayOf;
    return { kind: code, payload: work, platform: runPlatform };
  }
  if (!payload) return { kind: 'none' };
  return { kind: code, payload: decodeJobPayload(payload), platform: runPlatform };
}
