import { defineScript, reply } from '../../redis/index.js';

/** Turns a running (or blocked) run `cancelling`; true when this call began the cancelling. */
export const BEGIN_CANCEL = defineScript({
  keys: ['run'],
  args: ['now'],
  source: `local status = redis.call('HGET', KEYS[1], 'status')
if status ~= 'running' and status ~= 'blocked' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'cancelling', 'cancelledAt', ARGV[1])
return 1`,
  parse: reply.flag,
});
