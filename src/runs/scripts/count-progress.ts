import { defineScript, reply } from '../../redis/index.js';
import { countFieldsLua } from './settle-job.js';

/**
 * Counts what a job still under way has delivered (or found stale) into its run, as SETTLE_JOB
 * does at a job's end, and records it in `counted` (`<jobId>|<field>` -> n), so that the job's
 * settle, or a later attempt's after its worker died, does not count it again. `fields` are
 * (field, increment) pairs. Replies 1 when counted, 0 when the run is over or the job settled.
 */
export const COUNT_PROGRESS = defineScript({
  keys: ['run', 'settled', 'counted', 'metrics', 'throughput'],
  args: ['jobId', 'now', 'pipeline'],
  rest: 'fields',
  source: `local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'running' and status ~= 'cancelling' and status ~= 'blocked' then return 0 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
local counted = {}
${countFieldsLua({ run: 1, metrics: 4, throughput: 5, now: 2, pipeline: 3, fields: 4 })}
for i = 4, #ARGV, 2 do redis.call('HINCRBY', KEYS[3], ARGV[1] .. '|' .. ARGV[i], ARGV[i + 1]) end
return 1`,
  parse: (value) => reply.number(value) === 1,
});
