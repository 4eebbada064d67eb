import { defineScript, reply } from '../../redis/index.js';

export interface JobWorkReply {
  /** `none`: nothing to do (run over, or the job settled); `cancelled`: the run is being cancelled. */
  code: 'none' | 'send' | 'blocked' | 'probe' | 'cancelled';
  /** The job's payload, when asked for ('' when not, or when it is gone). */
  payload: string;
  /** The platform the run was planned for ('' for a run recorded before runs named it). */
  platform: string;
}

const codeOf = reply.code(['none', 'send', 'blocked', 'probe', 'cancelled']);

/**
 * What a job has to do (worker/job-work.ts); `withPayload` 1 to read its payload. Replies {0}
 * nothing to do (run over, or the job settled), {1, payload} send it, {2} the pipeline is blocked
 * (the job waits), {3, payload} blocked, but this job carries the probe (worker/breaker.ts),
 * {4, payload} the run is being cancelled (the job is dropped, its items counted cancelled); the
 * run's platform follows the payload (read here: a worker checks it for no round trip of its own).
 * A script rather than a pipeline: an ioredis pipeline on a connection BullMQ defined its ~70
 * scripts on copies them all into every pipeline object, which cost more than the round trip.
 */
export const JOB_WORK = defineScript({
  keys: ['run', 'settled', 'payloads', 'breaker'],
  args: ['jobId', 'withPayload'],
  source: `local run = redis.call('HMGET', KEYS[1], 'status', 'platform')
local status = run[1]
if status ~= 'running' and status ~= 'blocked' and status ~= 'cancelling' then return {0} end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return {0} end
local code = 1
if status == 'cancelling' then code = 4 end
if status == 'blocked' then
  if redis.call('HDEL', KEYS[4], 'probe') == 0 then return {2} end
  code = 3
end
local platform = run[2] or ''
if ARGV[2] ~= '1' then return {code, '', platform} end
return {code, redis.call('HGET', KEYS[3], ARGV[1]) or '', platform}`,
  parse: (value): JobWorkReply => {
    const [code, payload, platform] = reply.list(value);
    return { code: codeOf(code), payload: reply.string(payload), platform: reply.string(platform) };
  },
});
