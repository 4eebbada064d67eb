/**
 * The platform a pipeline's state belongs to: the base URL of the platform that confirmed it,
 * normalised, so that a run against another platform (FERRY_BASE_URL changed, same FERRY_PREFIX)
 * stops instead of planning nothing for what that platform never received. State kept before this
 * existed has no platform: it adopts the first one a run goes to.
 */
import type { RedisClient } from '../redis/index.js';
import { StateOtherPlatformError } from './errors.js';
import { liveCountKey, originKey, payloadKey, platformKey, refusedKey, stateKey } from './keys.js';

/** A platform's identity: scheme, host, port (when not the scheme's own) and path, no trailing slash. */
export function normalisePlatformUrl(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
}

/** The platform the interface settings send to (the demo server's when useDemo), normalised. */
export function platformUrl(settings: {
  baseUrl: string;
  demoBaseUrl: string;
  useDemo: boolean;
}): string {
  return normalisePlatformUrl(settings.useDemo ? settings.demoBaseUrl : settings.baseUrl);
}

/** The platform the pipeline's state belongs to; undefined before a run adopted one. */
export async function statePlatform(
  redis: RedisClient,
  prefix: string,
  pipeline: string,
): Promise<string | undefined> {
  return (await redis.get(platformKey(prefix, pipeline))) ?? undefined;
}

/** Throws StateOtherPlatformError when the state belongs to another platform than `platform`. */
export async function checkStatePlatform(
  redis: RedisClient,
  prefix: string,
  pipeline: string,
  platform: string,
): Promise<void> {
  const bound = await statePlatform(redis, prefix, pipeline);
  if (bound !== undefined && bound !== platform) {
    throw new StateOtherPlatformError(pipeline, bound, platform);
  }
}

/** The pipeline's state belongs to `platform` from now on (adopted, rebound or rebuilt). */
export async function bindStatePlatform(
  redis: RedisClient,
  prefix: string,
  pipeline: string,
  platform: string,
): Promise<void> {
  await redis.set(platformKey(prefix, pipeline), platform);
}

/**
 * The pipeline's state starts over on `platform` (`--resend-all` against another platform): what
 * the state, the payload history and the refusal counts held of the old one is dropped, so the run
 * sends everything. Under the pipeline's run lock.
 */
export async function startStateOver(
  redis: RedisClient,
  prefix: string,
  pipeline: string,
  resources: readonly string[],
  platform: string,
): Promise<void> {
  const multi = redis.multi();
  for (const resource of resources) {
    multi.del(
      stateKey(prefix, pipeline, resource),
      liveCountKey(prefix, pipeline, resource),
      originKey(prefix, pipeline, resource),
      payloadKey(prefix, pipeline, resource),
      refusedKey(prefix, pipeline, resource),
    );
  }
  await multi.set(platformKey(prefix, pipeline), platform).exec();
}
