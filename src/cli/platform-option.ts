import type { FerryConfig } from '../config/index.js';
import { stringOption, type OptionSpec, type ParsedArgs } from './command.js';

/** A command's `--platform NAME` filter, `what` saying what it keeps. */
export function platformOption(what: string): Record<'platform', OptionSpec> {
  return {
    platform: {
      type: 'string',
      placeholder: 'NAME',
      description: `Only ${what} of this platform (default: the top-level interface).`,
    },
  };
}

/**
 * `--pipeline` and `--platform` -> what to keep: a pipeline runs on another platform than default
 * as `NAME@PLATFORM`, so `--pipeline catalog --platform north` keeps `catalog@north`'s. A platform
 * the config does not declare is a bad usage (exit 2) naming the ones it does.
 */
export async function pipelineOnPlatformFilter(
  args: ParsedArgs,
  config: FerryConfig,
): Promise<{ pipeline?: string; platform?: string }> {
  const pipeline = stringOption(args, 'pipeline');
  const platform = stringOption(args, 'platform');
  if (platform === undefined) return pipeline === undefined ? {} : { pipeline };
  const { assertPlatform, pipelineOnPlatform } = await import('../config/index.js');
  assertPlatform(config, platform, '--platform');
  if (pipeline === undefined) return { platform };
  const qualified = pipeline.includes('@') ? pipeline : pipelineOnPlatform(pipeline, platform);
  return { pipeline: qualified, platform };
}
