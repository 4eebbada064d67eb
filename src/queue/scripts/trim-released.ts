import { defineScript, reply } from '../../redis/index.js';

/**
 * Trims a released chunk (`length` ids from `firstId`) off the stage list only if the list still
 * starts with it: a releaser whose lease lapsed midway (a stalled event loop) must not trim again
 * what its successor already trimmed.
 */
export const TRIM_RELEASED = defineScript({
  keys: ['stage'],
  args: ['firstId', 'length'],
  source: `if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LTRIM', KEYS[1], ARGV[2], -1) end
return 0`,
  parse: reply.none,
});
