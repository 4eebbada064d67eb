import { defineScript, reply } from '../lua.js';

/** Deletes the lease if `token` still holds it. */
export const RELEASE_LEASE = defineScript({
  keys: ['lease'],
  args: ['token'],
  source: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`,
  parse: reply.none,
});
