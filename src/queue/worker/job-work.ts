import type { RedisClient } from '../../redis/connection.js';
import { luaScript, runLua } from '../../redis/lua.js';
import type { DeliveryJobData, JobPayload } from '../job-data.js';
import { decodeJobPayload } from '../job-payload-codec.js';
import type { DeliveryKeys } from '../keys.js';

/**
 * KEYS: run hash, settled set, payload hash. ARGV: job id, 1 to read the payload.
 * Returns false when there is nothing to do, else the payload (or '' when not asked for it).
 * A script rather than a pipeline: an ioredis pipeline on a connection BullMQ defined its ~70
 * scripts on copies them all into every pipeline object, which cost more than the round trip.
 */
const JOB_WORK = luaScript(
  `if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return false end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return false end
if ARGV[2] ~= '1' then return '' end
return redis.call('HGET', KEYS[3], ARGV[1])`,
  3,
);

/**
 * What a job has to deliver: the requests its data carries (a retried job), else its payload in
 * the run's payload hash. Undefined when there is nothing to do: the run is over, or the job
 * settled already (it was processed before, by a worker that died before BullMQ heard of it).
 * One round trip.
 */
export async function jobWork(
  redis: RedisClient,
  keys: DeliveryKeys,
  jobId: string,
  data: DeliveryJobData,
): Promise<JobPayload | undefined> {
  const payload = await runLua(
    redis,
    JOB_WORK,
    [keys.run(data.runId), keys.runSettled(data.runId), keys.runPayloads(data.runId)],
    [jobId, data.requests ? 0 : 1],
  );
  if (typeof payload !== 'string') return undefined;
  if (data.requests) {
    const work: JobPayload = { requests: data.requests };
    if (data.replayOf) work.replayOf = data.replayOf;
    return work;
  }
  return payload === '' ? undefined : decodeJobPayload(payload);
}
