/**
 * The one place that decides which description of the platform a process plans, checks and sends
 * by (docs/INTERFACE.md, Which description runs use): the pinned one when `ferry interface pull`
 * pinned one (the authority a run was checked against; the live description's non-breaking
 * changes are recorded on the run, and take effect with `ferry interface accept`), the one at
 * `interface.openapi` as read now otherwise. startRun, the delivery worker, dead-letter replays,
 * reconcile, exports and `ferry state rebuild` take their config from here, so an entry point that
 * reaches them cannot send the assumed bodies to a described platform.
 */
import { configFromText, configWithContract } from '../../interface/index.js';
import { type FerryConfig, platformConfig, splitPipelineName } from '../../config/index.js';
import type { RedisClient } from '../../redis/index.js';
import { type DeliveryKeys, platformKeys } from '../keys.js';
import { readPin } from './pin-store.js';

export async function contractedConfig(
  config: FerryConfig,
  redis: RedisClient,
  keys: DeliveryKeys,
): Promise<FerryConfig> {
  if (!config.interface.openapi) return config;
  const pin = await readPin(redis, platformKeys(keys, config.platform));
  if (!pin) return configWithContract(config);
  if (config.contract?.from === 'pinned' && config.contract.sha256 === pin.sha256) return config;
  const { source, sha256, text } = pin;
  return configFromText(config, { from: 'pinned', source, sha256, text });
}

/**
 * The contracted config of the platform a pipeline's qualified name runs on (`catalog@north`:
 * north's address, credential and description; config/platforms.ts).
 */
export async function pipelineConfig(
  config: FerryConfig,
  pipeline: string,
  redis: RedisClient,
  keys: DeliveryKeys,
): Promise<FerryConfig> {
  const platform = splitPipelineName(pipeline).platform;
  return contractedConfig(platformConfig(config, platform), redis, keys);
}
