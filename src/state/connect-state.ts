import { connectNow } from '../redis/connect-now.js';
import type { RedisClient, RedisTarget } from '../redis/connection.js';

export { redisWhere } from '../redis/redis-unavailable.js';

/**
 * A connection for a short command that reads the sync state (`ferry plan`): it fails at once
 * (exit code 5) when Redis does not answer. `need` says what the command keeps there.
 */
export async function connectState(
  target: string | RedisTarget,
  need = 'planning needs the sync state kept there',
): Promise<RedisClient> {
  return await connectNow(target, need);
}
