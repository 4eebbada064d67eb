/**
 * The front door of src/config: the configuration. The layers above import what they use of it
 * from here, never one of its modules (.ci/check-imports.mjs); this file re-exports exactly those
 * names.
 */
export { envValue } from './env-value.js';
export { formatIssues } from './format-issues.js';
export { DELETE_STYLES, type DeleteStyle } from './schema.js';
export { interpolate } from './interpolate.js';
export { type Listing, LISTINGS } from './listings.js';
export { configPath, loadConfig, PROJECT_ROOT, readYamlFile } from './load-config.js';
export type {
  AnswersConfig,
  AuthConfig,
  BindingConfig,
  PagingConfig,
  ContractInUse,
  FerryConfig,
} from './schema.js';
export {
  assertPlatform,
  credentialSetting,
  descriptionSetting,
  DEFAULT_PLATFORM,
  pipelineOnPlatform,
  platformConcurrency,
  platformConfig,
  platformNames,
  platformOf,
  platformVariable,
  splitPipelineName,
} from './platforms.js';
export { PLATFORM_NAME, type PlatformSettings } from './schema.js';
