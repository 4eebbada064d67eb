/**
 * Before a run plans (a sync, an import, a schedule's tick, an undo, a repair) or a dead-letter
 * replay sends: the pipeline's state must belong to the platform the run sends to. State of no
 * platform yet (kept before platforms were recorded, or none) adopts this one; state of another
 * stops the run (FERRY_STATE_OTHER_PLATFORM), unless `--resend-all` starts the state over on this
 * platform. The run records its platform, and only workers configured for it deliver its jobs.
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

interface ClaimContext {
  config: FerryConfig;
  redis: RedisClient;
  logger?: Logger;
}

/**
 * The other platform the pipeline's state belongs to, if it does; state of none adopts this one.
 */
async function otherStatePlatform(
  ctx: ClaimContext,
  pipeline: string,
  platform: string,
): Promise<string | undefined> {
  const prefix = ctx.config.redis.prefix;
  const bound = await statePlatform(ctx.redis, prefix, pipeline);
  if (bound === platform) return undefined;
  if (bound === undefined) {
    await bindStatePlatform(ctx.redis, prefix, pipeline, platform);
    ctx.logger?.info({ pipeline, platform }, "the pipeline's state belongs to this platform now");
    return undefined;
  }
  return bound;
}

export async function claimStatePlatform(
  ctx: ClaimContext,
  definition: PipelineDefinition,
  resendAll: boolean,
): Promise<void> {
  const pipeline = definition.name;
  const platform = platformUrl(ctx.config.interface);
  const bound = await otherStatePlatform(ctx, pipeline, platform);
  if (bound === undefined) return;
  if (!resendAll) throw new StateOtherPlatformError(pipeline, bound, platform);
  const resources = [...new Set(definition.entities.map((e) => e.resource))];
  await startStateOver(ctx.redis, ctx.config.redis.prefix, pipeline, resources, platform);
  ctx.logger?.warn(
    { pipeline, from: bound, platform },
    "--resend-all: the pipeline's state of the other platform is dropped; everything is sent",
  );
}

/**
 * Before a dead-letter replay sends: as a run, its pipeline's state must belong to the platform it
 * sends to (what that platform confirms is committed into it); a replay never starts it over.
 */
export async function claimReplayPlatform(ctx: ClaimContext, pipeline: string): Promise<void> {
  const platform = platformUrl(ctx.config.interface);
  const bound = await otherStatePlatform(ctx, pipeline, platform);
  if (bound !== undefined) throw new StateOtherPlatformError(pipeline, bound, platform);
}
