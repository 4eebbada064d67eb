/**
 * Before a run plans (a sync, an import, a schedule's tick, an undo, a repair): the pipeline's
 * state must belong to the platform the run sends to. State of no platform yet (kept before
 * platforms were recorded, or none) adopts this one; state of another stops the run
 * (FERRY_STATE_OTHER_PLATFORM), unless `--resend-all` starts the state over on this platform.
 */
import type { FerryConfig } from '../config/index.js';
import type { Logger } from '../logging/index.js';
import type { PipelineDefinition } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import {
  bindStatePlatform,
  platformUrl,
  startStateOver,
  statePlatform,
  StateOtherPlatformError,
} from '../state/index.js';

export async function claimStatePlatform(
  ctx: { config: FerryConfig; redis: RedisClient; logger: Logger },
  definition: PipelineDefinition,
  resendAll: boolean,
): Promise<void> {
  const { config, redis } = ctx;
  const prefix = config.redis.prefix;
  const pipeline = definition.name;
  const platform = platformUrl(config.interface);
  const bound = await statePlatform(redis, prefix, pipeline);
  if (bound === platform) return;
  if (bound === undefined) {
    await bindStatePlatform(redis, prefix, pipeline, platform);
    ctx.logger.info({ pipeline, platform }, "the pipeline's state belongs to this platform now");
    return;
  }
  if (!resendAll) throw new StateOtherPlatformError(pipeline, bound, platform);
  const resources = [...new Set(definition.entities.map((e) => e.resource))];
  await startStateOver(redis, prefix, pipeline, resources, platform);
  ctx.logger.warn(
    { pipeline, from: bound, platform },
    "--resend-all: the pipeline's state of the other platform is dropped; everything is sent",
  );
}
