/**
 * The front door of src/redis: the Redis connection, leases and the Lua scripts. The layers above
 * import what they use of it from here, never one of its modules (.ci/check-imports.mjs); this
 * file re-exports exactly those names.
 */
export { connectNow } from './connect-now.js';
export {
  createRedis,
  type RedisClient,
  type RedisTarget,
  warnIfEvicting,
  withCommandTimeout,
} from './connection.js';
export { deleteKeysUnder } from './delete-prefix.js';
export { acquireLease } from './lease.js';
export { defineScript, reply, runScript } from './lua.js';
export { type PrivateRedis, startPrivateRedis } from './private-redis.js';
export { quiet } from './quiet-queue.js';
export { isRedisConnectionError, RedisUnavailableError, redisWhere } from './redis-unavailable.js';
export { logRedisState, onWorkerError, waitForRedis } from './wait-for-redis.js';
