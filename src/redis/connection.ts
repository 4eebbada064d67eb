import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../logging/logger.js';

/**
 * A Redis connection for Ferry. `maxRetriesPerRequest: null` is what BullMQ workers need (a command
 * waits for a reconnect instead of failing). The URL may carry a password: never log it.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, ...options });
}

/**
 * A queue loses jobs when Redis evicts keys. Warns, with what to set, when the server's
 * maxmemory-policy is anything but noeviction. Returns the policy.
 */
export async function warnIfEvicting(redis: Redis, logger: Logger): Promise<string | undefined> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as string[];
    const policy = reply[1];
    if (policy && policy !== 'noeviction') {
      logger.warn(
        { maxmemoryPolicy: policy },
        'Redis may evict keys (maxmemory-policy is not noeviction): queued jobs and sync state can be lost. ' +
          'Set maxmemory-policy noeviction on this Redis.',
      );
    }
    return policy;
  } catch {
    // CONFIG may be disabled on managed Redis; nothing to check then.
    return undefined;
  }
}
