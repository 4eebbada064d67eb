import { defineScript, reply } from '../lua.js';

/** Makes the lease permanent if `token` still holds it; false when it was lost. */
export const KEEP_LEASE = defineScript({
  keys: ['lease'],
  args: ['token'],
  source: `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PERSIST', KEYS[1]) return 1 end
return 0`,
  parse: reply.flag,
});
