import { defineScript, reply } from '../../redis/index.js';

/** Drops each of `openFields` from the open map where it still names the entry `id`. */
export const CLOSE_DEAD_LETTER = defineScript({
  keys: ['open'],
  args: ['id'],
  rest: 'openFields',
  source: `for i = 2, #ARGV do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return 0`,
  parse: reply.none,
});
