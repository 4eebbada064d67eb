import { defineScript, reply } from '../../redis/index.js';
import { countRunEndLua } from '../../runs/index.js';

/**
 * The last resort (cancel-run.ts): a cancelling run none of whose jobs is held by a worker nor
 * left to drop, whose pending counts still did not reach zero, ends anyway and frees its
 * pipeline. True when this call ended it.
 */
export const FINALIZE_CANCEL = defineScript({
  keys: ['run', 'activeRun', 'activeRuns', 'metrics'],
  args: ['runId', 'now'],
  source: `if redis.call('HGET', KEYS[1], 'status') ~= 'cancelling' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'finishedAt', ARGV[2])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
redis.call('SREM', KEYS[3], ARGV[1])
${countRunEndLua({ run: 1, metrics: 4, pipeline: "redis.call('HGET', KEYS[1], 'pipeline')" }, "'cancelled'")}
return 1`,
  parse: reply.flag,
});
