import { type RedisClient, luaScript, runLua } from '../../redis/index.js';
import {
  type DeliveryJobData,
  type JobPayload,
  decodeJobPayload,
  type DeliveryKeys,
} from '../../runs/index.js';

/**
 * KEYS: run hash, settled set, payload hash, the pipeline's breaker hash. ARGV: job id, 1 to read
 * the payload. Returns {0} nothing to do (run over, or the job settled), {1, payload} send it,
 * {2} the pipeline is blocked (the job waits), {3, payload} blocked, but this job carries the
 * probe (breaker.ts), {4, payload} the run is being cancelled (the job is dropped, its items
 * counted cancelled). The payload is '' when not asked for.
 * A script rather than a pipeline: an ioredis pipeline on a connection BullMQ defined its ~70
 * scripts on copies them all into every pipeline object, which cost more than the round trip.
 */
const JOB_WORK = luaScript(
  `local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'running' and status ~= 'blocked' and status ~= 'cancelling' then return {0} end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return {0} end
local code = 1
if status == 'cancelling' then code = 4 end
if status == 'blocked' then
  if redis.call('HDEL', KEYS[4], 'probe') == 0 then return {2} end
  code = 3
end
if ARGV[2] ~= '1' then return {code, ''} end
return {code, redis.call('HGET', KEYS[3], ARGV[1]) or ''}`,
  4,
);

export type JobWork =
  | { kind: 'none' }
  | { kind: 'blocked' }
  | { kind: 'send' | 'probe' | 'cancelled'; payload: JobPayload };

/**
 * What a job has to deliver: the requests its data carries (a retried job), else its payload in
 * the run's payload hash; or why it sends nothing: the run is over or the job settled already
 * (it was processed before, by a worker that died before BullMQ heard of it), the pipeline is
 * blocked, the run is being cancelled. One round trip.
 */
export async function jobWork(
  redis: RedisClient,
  keys: DeliveryKeys,
  jobId: string,
  data: DeliveryJobData,
): Promise<JobWork> {
  const [code, payload] = (await runLua(
    redis,
    JOB_WORK,
    [
      keys.run(data.runId),
      keys.runSettled(data.runId),
      keys.runPayloads(data.runId),
      keys.breaker(data.pipeline),
    ],
    [jobId, data.requests ? 0 : 1],
  )) as [number, string?];
  if (code === 0) return { kind: 'none' };
  if (code === 2) return { kind: 'blocked' };
  const kind = code === 3 ? 'probe' : code === 4 ? 'cancelled' : 'send';
  if (data.requests) {
    const work: JobPayload = { requests: data.requests };
    if (data.replayOf) work.replayOf = data.replayOf;
    return { kind, payload: work };
  }
  if (!payload) return { kind: 'none' };
  return { kind, payload: decodeJobPayload(payload) };
}
