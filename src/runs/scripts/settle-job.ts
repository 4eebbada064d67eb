import { defineScript, reply } from '../../redis/index.js';
import { countRunEndLua, runKindLua } from '../metrics/metric-fields.js';

/** How long the per-minute throughput counters live: the console charts the last hour. */
const THROUGHPUT_KEPT_SECONDS = 2 * 3600;
/** Width of a run's timeline buckets (`tl:<n>` fields of the run hash). */
export const TIMELINE_BUCKET_MS = 10_000;

export type SettleResult =
  | { kind: 'duplicate' }
  | { kind: 'pending' }
  | { kind: 'next-stage'; stage: number }
  | { kind: 'finished'; status: 'succeeded' | 'partial' | 'cancelled' };

const finished = reply.oneOf(['succeeded', 'partial', 'cancelled']);

function parseSettle(value: unknown): SettleResult {
  const [code, detail] = reply.list(value);
  switch (code) {
    case 1:
      return { kind: 'pending' };
    case 2:
      return { kind: 'next-stage', stage: Number(detail) };
    case 3:
      return { kind: 'finished', status: finished(detail) };
    default:
      return { kind: 'duplicate' };
  }
}

/** Where countFieldsLua finds its keys (KEYS indexes) and arguments (ARGV indexes). */
interface CountPlaces {
  run: number;
  metrics: number;
  throughput: number;
  now: number;
  pipeline: number;
  /** The first of the (field, increment) pairs, which run to the end of ARGV. */
  fields: number;
}

/**
 * Lua that counts a job's (field, increment) pairs into its run: `op:<operation>:<outcome>`
 * fields also into the metrics and, delivered, into the installation's items per minute and the
 * run's items per 10 s (`tl:<n>`); each increment less what the Lua table `counted` (field -> n)
 * says was counted before. Shared by SETTLE_JOB and COUNT_PROGRESS (count-progress.ts).
 */
export function countFieldsLua(at: CountPlaces): string {
  return `local delivered = 0
for i = ${at.fields}, #ARGV, 2 do
  local n = tonumber(ARGV[i + 1]) - (counted[ARGV[i]] or 0)
  if n ~= 0 then
    redis.call('HINCRBY', KEYS[${at.run}], ARGV[i], n)
    local op, outcome = string.match(ARGV[i], '^op:(.+):(%a+)$')
    if op then redis.call('HINCRBY', KEYS[${at.metrics}], 'items|' .. ARGV[${at.pipeline}] .. '|' .. op .. '|' .. outcome, n) end
    if outcome == 'delivered' then delivered = delivered + n end
  end
end
if delivered > 0 then
  redis.call('INCRBY', KEYS[${at.throughput}], delivered)
  redis.call('EXPIRE', KEYS[${at.throughput}], ${THROUGHPUT_KEPT_SECONDS})
  redis.call('HINCRBY', KEYS[${at.run}], 'tl:' .. math.floor(tonumber(ARGV[${at.now}]) / ${TIMELINE_BUCKET_MS}), delivered)
end`;
}

/**
 * Settles one job of a run (settle-job.ts). `fields` are (field, increment) pairs;
 * `op:<operation>:<outcome>` fields also count into the metrics (metrics/metric-fields.ts), and
 * the delivered ones into the installation's items per minute (`throughput`, kept two hours) and
 * the run's items per 10 s (`tl:<n>`, for the charts of the console). What a long job already
 * counted on its way (COUNT_PROGRESS, in `counted`: `<jobId>|<field>` -> n) is not counted again.
 * Replies {0} already settled (or the run is over), {1} stage still running (or the run is being
 * cancelled: a job in flight still counts what it delivered, and goes no further), {2, n} stage n
 * is due, {3, status} finished (a cancelled run: when its last job settled).
 */
export const SETTLE_JOB = defineScript({
  keys: [
    'run',
    'settled',
    'activeRun',
    'activeRuns',
    'payloads',
    'metrics',
    'throughput',
    'counted',
  ],
  args: ['jobId', 'stage', 'now', 'runId', 'pipeline'],
  rest: 'fields',
  source: `local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'running' and status ~= 'cancelling' and status ~= 'blocked' then return {0} end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return {0} end
redis.call('HDEL', KEYS[5], ARGV[1])
local counted = {}
if redis.call('EXISTS', KEYS[8]) == 1 then
  for i = 6, #ARGV, 2 do
    local f = ARGV[1] .. '|' .. ARGV[i]
    counted[ARGV[i]] = tonumber(redis.call('HGET', KEYS[8], f) or '0')
    redis.call('HDEL', KEYS[8], f)
  end
end
${countFieldsLua({ run: 1, metrics: 6, throughput: 7, now: 3, pipeline: 5, fields: 6 })}
local stage = tonumber(ARGV[2])
local pending = redis.call('HINCRBY', KEYS[1], 'pending:' .. stage, -1)
local count = tonumber(redis.call('HGET', KEYS[1], 'stageCount'))
if status == 'cancelling' then
  -- The last job of a cancelled run to settle ends it (cancel-run.ts dropped the others).
  for s = 0, count - 1 do
    if tonumber(redis.call('HGET', KEYS[1], 'pending:' .. s) or '0') > 0 then return {1} end
  end
  redis.call('HSET', KEYS[1], 'status', 'cancelled', 'finishedAt', ARGV[3], 'currentStage', count)
  if redis.call('GET', KEYS[3]) == ARGV[4] then redis.call('DEL', KEYS[3]) end
  redis.call('SREM', KEYS[4], ARGV[4])
  ${countRunEndLua({ run: 1, metrics: 6, pipeline: 'ARGV[5]' }, "'cancelled'")}
  return {3, 'cancelled'}
end
if pending > 0 then return {1} end
local n = stage + 1
while n < count and tonumber(redis.call('HGET', KEYS[1], 'pending:' .. n) or '0') == 0 do n = n + 1 end
if n < count then
  redis.call('HSET', KEYS[1], 'currentStage', n)
  return {2, n}
end
local failed = tonumber(redis.call('HGET', KEYS[1], 'total:failed') or '0')
local rejected = tonumber(redis.call('HGET', KEYS[1], 'rejected') or '0')
local status = 'succeeded'
if failed > 0 or rejected > 0 then status = 'partial' end
redis.call('HSET', KEYS[1], 'status', status, 'finishedAt', ARGV[3], 'currentStage', count)
if redis.call('GET', KEYS[3]) == ARGV[4] then redis.call('DEL', KEYS[3]) end
redis.call('SREM', KEYS[4], ARGV[4])
${countRunEndLua({ run: 1, metrics: 6, pipeline: 'ARGV[5]' }, 'status')}
-- Every planned item settled: a sync run (not a replay, an undo or a repair) is the pipeline's
-- last success, rejected rows and dead letters notwithstanding (they have their own metrics).
if ${runKindLua(1)} == 'sync' then
  redis.call('HSET', KEYS[6], 'lastSuccess|' .. ARGV[5], ARGV[3])
end
return {3, status}`,
  parse: parseSettle,
});
