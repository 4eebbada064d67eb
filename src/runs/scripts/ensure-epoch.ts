import { defineScript, reply } from '../../redis/index.js';

/** Creates the installation's epoch when there is none; replies the epoch {id, createdAt}. */
export const ENSURE_EPOCH = defineScript({
  keys: ['epoch'],
  args: ['id', 'createdAt'],
  source: `local id = redis.call('HGET', KEYS[1], 'id')
if id then return {id, redis.call('HGET', KEYS[1], 'createdAt')} end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'createdAt', ARGV[2])
return {ARGV[1], ARGV[2]}`,
  parse: (value) => {
    const [id, createdAt] = reply.list(value);
    return { id: reply.string(id), createdAt: Number(createdAt) };
  },
});
