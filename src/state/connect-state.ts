import { connectNow, type RedisClient, type RedisTarget } from '../redis/index.js';

export { redisWhere } from '../redis/index.js';

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
