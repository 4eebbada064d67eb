/**
 * Several shops per installation (docs/PLATFORMS.md): the top-level `interface` is the platform
 * `default`, `platforms.<name>` the others. A config scoped to a platform (`platformConfig`) has
 * that platform's interface and delivery settings, so every part that plans, checks or sends by a
 * config speaks to that platform without knowing of the others.
 *
 * A pipeline runs on a platform under its qualified name: `catalog` on `default`, `catalog@north`
 * on `north` (`@` is not in a pipeline file's name). That name keys its state, runs, lock,
 * breaker and dead letters, so each platform's are its own.
 */
import { ConfigError } from '../errors/index.js';
import type { FerryConfig } from './schema.js';

export const DEFAULT_PLATFORM = 'default';

/** The platform names of a config: `default` first, then `platforms`' in their order. */
export function platformNames(config: FerryConfig): string[] {
  return [DEFAULT_PLATFORM, ...Object.keys(config.platforms)];
}

/** The platform a (scoped) config speaks for. */
export function platformOf(config: FerryConfig): string {
  return config.platform ?? DEFAULT_PLATFORM;
}

/** Throws naming the platforms there are when `name` is not one of them. */
export function assertPlatform(config: FerryConfig, name: string, where: string): void {
  if (name === DEFAULT_PLATFORM || Object.hasOwn(config.platforms, name)) return;
  throw new ConfigError(where, [
    {
      path: name,
      message: `no such platform; platforms: ${platformNames(config).join(', ')} (config key platforms)`,
    },
  ]);
}

/**
 * The config as platform `name` is spoken to: its base URL, credential, listing, description,
 * bindings and idempotency header, its rate and bulk share; every other key the config's own. A
 * contract attached to the config belongs to the default platform and is dropped for another.
 */
export function platformConfig(config: FerryConfig, name: string): FerryConfig {
  if (name === platformOf(config)) return config;
  if (name === DEFAULT_PLATFORM || config.platform !== undefined) {
    throw new Error('platformConfig: a config scoped to a platform cannot be scoped to another');
  }
  assertPlatform(config, name, 'platform');
  // One object per config and platform: what is cached by config (compiled pipelines) stays so.
  let mine = scoped.get(config);
  if (!mine) scoped.set(config, (mine = new Map()));
  const known = mine.get(name);
  if (known) return known;
  const made = scope(config, name);
  mine.set(name, made);
  return made;
}

const scoped = new WeakMap<FerryConfig, Map<string, FerryConfig>>();

function scope(config: FerryConfig, name: string): FerryConfig {
  const settings = config.platforms[name];
  if (settings === undefined) throw new Error(`platformConfig: no platform ${name}`);
  const { delivery, ...own } = settings;
  const { contract, ...rest } = config;
  const iface = {
    ...config.interface,
    bindings: contract?.configured ?? config.interface.bindings,
  };
  return {
    ...rest,
    platform: name,
    interface: { ...iface, ...definedOnly(own), useDemo: false },
    delivery: {
      ...config.delivery,
      ...definedOnly({ ratePerSecond: delivery?.ratePerSecond, bulkShare: delivery?.bulkShare }),
    },
  };
}

/** Jobs of the config's platform one worker process runs at once (delivery.concurrency at most). */
export function platformConcurrency(config: FerryConfig, name: string): number {
  const own = name === DEFAULT_PLATFORM ? undefined : config.platforms[name]?.delivery?.concurrency;
  return Math.min(own ?? config.delivery.concurrency, config.delivery.concurrency);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A pipeline's name on a platform: `catalog` on `default`, `catalog@north` on `north`. */
export function pipelineOnPlatform(pipeline: string, platform: string): string {
  return platform === DEFAULT_PLATFORM ? pipeline : `${pipeline}@${platform}`;
}

/** `catalog@north` -> {pipeline: 'catalog', platform: 'north'}; `catalog` is on `default`. */
export function splitPipelineName(name: string): { pipeline: string; platform: string } {
  const at = name.lastIndexOf('@');
  if (at <= 0) return { pipeline: name, platform: DEFAULT_PLATFORM };
  return { pipeline: name.slice(0, at), platform: name.slice(at + 1) };
}

/**
 * Where a platform's credential is set, for a message about a refused one: its config key, and the
 * variable that sets a bearer token (`interface.auth (or FERRY_TOKEN)`).
 */
export function credentialSetting(platform: string, authType: string): string {
  const own = platform === DEFAULT_PLATFORM;
  const key = own ? 'interface.auth' : `platforms.${platform}.auth`;
  if (authType !== 'bearer') return key;
  return `${key} (or ${own ? 'FERRY_TOKEN' : platformVariable(platform, 'TOKEN')})`;
}

/** Where a config's platform takes its OpenAPI description from, for a message that asks for one. */
export function descriptionSetting(config: FerryConfig): string {
  const platform = platformOf(config);
  return platform === DEFAULT_PLATFORM
    ? 'interface.openapi (FERRY_OPENAPI)'
    : `platforms.${platform}.openapi (or interface.openapi, which it takes when it has none)`;
}

/** The variable of a platform's setting: `FERRY_PLATFORM_NORTH_BASE_URL`. */
export function platformVariable(platform: string, setting: 'BASE_URL' | 'TOKEN'): string {
  return `FERRY_PLATFORM_${platform.toUpperCase()}_${setting}`;
}
