import { defineScript, reply } from '../../redis/index.js';
import { clock } from './rate-window.js';

/** The platform's own figures, as its headers state them. */
export const RATE_OBSERVED = defineScript({
  keys: ['limit'],
  args: ['quota', 'windowMs', 'now'],
  source: `${clock(3)}
redis.call('HSET', KEYS[1], 'hq', ARGV[1], 'hw', ARGV[2], 'hs', now)
return 1`,
  parse: reply.none,
});
