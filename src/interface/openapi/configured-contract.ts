/**
 * The config a command runs with when `interface.openapi` names the platform's description: its
 * bindings come from the description where it says, and from `interface.bindings` where the config
 * file sets them. Without a description the config is returned as it is.
 */
import type { FerryConfig } from '../../config/index.js';
import { withDescribedBindings } from './contract-bindings.js';
import { describedBindings } from './described-bindings.js';
import { describedOperations } from './described-operations.js';
import { loadDescription, type Description } from './load-description.js';
import { matchCatalog } from './match-catalog.js';

export function configFromDescription(config: FerryConfig, description: Description): FerryConfig {
  const match = matchCatalog(describedOperations(description.doc));
  return withDescribedBindings(config, describedBindings(match));
}

export async function configWithContract(config: FerryConfig): Promise<FerryConfig> {
  const source = config.interface.openapi;
  if (!source) return config;
  return configFromDescription(config, await loadDescription(source));
}
