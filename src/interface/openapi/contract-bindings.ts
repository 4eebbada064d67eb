/**
 * The config as it runs against a described platform: `interface.bindings` becomes what the
 * description states, overridden setting by setting by what the config file sets.
 */
import type { BindingConfig, FerryConfig } from '../../config/index.js';

export function mergeBindings(
  configured: Record<string, BindingConfig>,
  described: Record<string, BindingConfig>,
): Record<string, BindingConfig> {
  const merged: Record<string, BindingConfig> = { ...described };
  for (const [id, o] of Object.entries(configured)) merged[id] = { ...described[id], ...o };
  return merged;
}

export function withDescribedBindings(
  config: FerryConfig,
  described: Record<string, BindingConfig>,
): FerryConfig {
  return {
    ...config,
    interface: {
      ...config.interface,
      bindings: mergeBindings(config.interface.bindings, described),
    },
  };
}
