import { defineScript, reply } from '../../redis/index.js';

/** Records the export about to be published if `runId` still holds the pipeline's lock; true then. */
export const SAVE_PENDING_EXPORT = defineScript({
  keys: ['lock', 'export'],
  args: ['runId', 'pending'],
  source: `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], 'pending', ARGV[2])
return 1`,
  parse: reply.flag,
});
