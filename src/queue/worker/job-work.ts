import type { Redis } from 'ioredis';
import type { DeliveryJobData, JobPayload } from '../job-data.js';
import type { DeliveryKeys } from '../keys.js';

/**
 * What a job has to deliver: the requests its data carries (a retried job), else its payload in
 * the run's payload hash. Undefined when there is nothing to do: the run is over, or the job
 * settled already (it was processed before, by a worker that died before BullMQ heard of it).
 * One round trip.
 */
export async function jobWork(
  redis: Redis,
  keys: DeliveryKeys,
  jobId: string,
  data: DeliveryJobData,
): Promise<JobPayload | undefined> {
  const replies = (await redis
    .pipeline()
    .hget(keys.run(data.runId), 'status')
    .sismember(keys.runSettled(data.runId), jobId)
    .hget(keys.runPayloads(data.runId), jobId)
    .exec()) as [Error | null, unknown][] | null;
  const [status, settled, payload] = (replies ?? []).map(([error, value]) => {
    if (error) throw error;
    return value;
  });
  if (status !== 'running' || settled === 1) return undefined;
  if (data.requests) {
    const work: JobPayload = { requests: data.requests };
    if (data.replayOf) work.replayOf = data.replayOf;
    return work;
  }
  return typeof payload === 'string' ? (JSON.parse(payload) as JobPayload) : undefined;
}
