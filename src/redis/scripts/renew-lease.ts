import { defineScript, reply } from '../lua.js';

/** Extends the lease by `ttlMs` if `token` still holds it; false when it was lost. */
export const RENEW_LEASE = defineScript({
  keys: ['lease'],
  args: ['token', 'ttlMs'],
  source: `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`,
  parse: reply.flag,
});
