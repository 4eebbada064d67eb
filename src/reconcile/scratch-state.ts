/**
 * A copy of a pipeline's state under another prefix (server-side COPY: the state hash and its
 * live counter share the pipeline's hash tag, so the copy lands in the same cluster slot), for
 * planning against a state changed without touching the real one.
 */
import { liveCountKey, stateKey } from '../state/index.js';
import type { RedisClient } from '../redis/index.js';
import { WORK_TTL_S } from './keys.js';

function keyPairs(from: string, to: string, pipeline: string, resources: readonly string[]) {
  return resources.flatMap((r) => [
    [stateKey(from, pipeline, r), stateKey(to, pipeline, r)] as const,
    [liveCountKey(from, pipeline, r), liveCountKey(to, pipeline, r)] as const,
  ]);
}

export async function copyState(
  redis: RedisClient,
  prefix: string,
  scratch: string,
  pipeline: string,
  resources: readonly string[],
): Promise<void> {
  for (const [from, to] of keyPairs(prefix, scratch, pipeline, resources)) {
    await redis.copy(from, to, 'REPLACE');
  }
}

export async function dropScratch(
  redis: RedisClient,
  scratch: string,
  pipeline: string,
  resources: readonly string[],
): Promise<void> {
  for (const [, to] of keyPairs(scratch, scratch, pipeline, resources)) await redis.unlink(to);
}

/** Gives the copy an expiry (a command killed before dropScratch leaves nothing for good). */
export async function expireScratch(
  redis: RedisClient,
  scratch: string,
  pipeline: string,
  resources: readonly string[],
): Promise<void> {
  for (const [, to] of keyPairs(scratch, scratch, pipeline, resources)) {
    await redis.expire(to, WORK_TTL_S);
  }
}
