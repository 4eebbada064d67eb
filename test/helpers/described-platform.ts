/**
 * Ferry set up against a simulator that plays a platform's published description: the pipelines
 * copied into the harness's folder, a config file for the `ferry` CLI, and the same config in
 * process with what the description sets.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { AuthConfig, FerryConfig } from '../../src/config/schema.js';
import { configFromDescription } from '../../src/interface/openapi/configured-contract.js';
import { loadDescription } from '../../src/interface/openapi/load-description.js';
import { testConfig, type DeliveryHarness } from '../queue/delivery-fixtures.js';
import { configOnlyEnv } from './ferry-here.js';
import { TEST_REDIS_URL } from './redis.js';

/** A platform known by its description alone: the file, its listing and its credential. */
export interface DescribedPlatform<Auth = AuthConfig> {
  file: string;
  listing: 'A' | 'B';
  /** interface.auth as the config file says it. */
  auth: Auth;
}

/** What `writeDescribedSetup` wrote. */
export interface DescribedSetup {
  /** The pipelines' folder. */
  pipelines: string;
  configFile: string;
  /** The caller's environment with FERRY_CONFIG = configFile and none of its FERRY_*, REDIS_URL, OTEL_*. */
  env: NodeJS.ProcessEnv;
}

/** Copies `names` of config/pipelines into `dir`/pipelines; that folder. */
export function copyPipelines(dir: string, names: readonly string[] = ['catalog.yaml']): string {
  const pipelines = join(dir, 'pipelines');
  mkdirSync(pipelines, { recursive: true });
  for (const name of names) {
    copyFileSync(join(PROJECT_ROOT, 'config/pipelines', name), join(pipelines, name));
  }
  return pipelines;
}

/**
 * Writes the harness's folder for `platform` played by `h.sim`: the pipelines `names` and
 * ferry.yaml naming them, the description, the simulator and the harness's key prefix.
 */
export function writeDescribedSetup(
  h: DeliveryHarness,
  platform: DescribedPlatform<unknown>,
  names?: readonly string[],
): DescribedSetup {
  const pipelines = copyPipelines(h.dir, names);
  const configFile = join(h.dir, 'ferry.yaml');
  const { file, listing, auth } = platform;
  writeFileSync(
    configFile,
    stringify({
      redis: { url: TEST_REDIS_URL, prefix: h.prefix },
      interface: { baseUrl: h.sim.url, listing, openapi: file, auth },
      pipelines: { dir: pipelines },
      delivery: { backoff: { baseMs: 20, capMs: 200 }, reportsDir: join(h.dir, 'reports') },
      log: { level: 'silent' },
    }),
  );
  return { pipelines, configFile, env: configOnlyEnv(configFile) };
}

/**
 * The config in process for `platform` played by `h.sim` (testConfig's, reports in the harness's
 * folder), the pipelines in `pipelines`, `extra` on its interface; with what the description sets.
 */
export async function describedConfig(
  h: DeliveryHarness,
  platform: DescribedPlatform,
  pipelines: string,
  extra: Partial<FerryConfig['interface']> = {},
): Promise<FerryConfig> {
  const plain = testConfig(h.prefix, h.sim.url, join(h.dir, 'reports'));
  const { file, listing, auth } = platform;
  const base: FerryConfig = {
    ...plain,
    interface: { ...plain.interface, listing, auth, openapi: file, ...extra },
    pipelines: { ...plain.pipelines, dir: pipelines },
  };
  return configFromDescription(base, await loadDescription(file));
}
