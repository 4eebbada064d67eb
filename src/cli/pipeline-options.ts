/**
 * Options shared by `ferry plan` and `ferry run`: the --file source override, --lookup file
 * overrides and --allow-deletes.
 */
import { resolve } from 'node:path';
import type { S3Spec, SftpSpec } from '../../connectors/index.js';
import { UsageError } from '../errors/index.js';
import type { FerryConfig } from '../config/index.js';
import type { AllowDeletes, SourceSpec } from '../pipeline/index.js';
import type { OptionSpec } from './command.js';

export const PLATFORM_OPTION: Record<string, OptionSpec> = {
  platform: {
    type: 'string',
    placeholder: 'NAME',
    description:
      "One of the platforms the pipeline delivers to (docs/PLATFORMS.md). Default: all of them, or the pipeline's only one.",
  },
};

/**
 * The one name a command that works on one platform's state takes: `catalog` on its only (or
 * default) platform, `catalog@north` or `--platform north`; a fan-out without one is refused,
 * naming the names to use.
 */
export async function onePlatformTarget(
  name: string,
  config: FerryConfig,
  platform: string | undefined,
): Promise<string> {
  const { pipelineTargets } = await import('../pipeline/index.js');
  const targets = pipelineTargets(name, config, platform);
  if (targets.length > 1) {
    throw new UsageError(
      `${name} delivers to ${targets.join(', ')}, each against its own state: name one with --platform NAME (or as ${targets[0] as string}).`,
    );
  }
  return targets[0] as string;
}

/** The config as `--platform NAME` is spoken to (the config itself without one). */
export async function platformScoped(
  config: FerryConfig,
  platform: string | undefined,
): Promise<FerryConfig> {
  if (platform === undefined) return config;
  const { assertPlatform, platformConfig } = await import('../config/index.js');
  assertPlatform(config, platform, '--platform');
  return platformConfig(config, platform);
}

export const FILE_OPTION: Record<string, OptionSpec> = {
  file: {
    type: 'string',
    placeholder: 'F',
    description:
      "The input (a path, - for stdin, an http(s) URL, or one object at sftp://USER@HOST/PATH or s3://BUCKET/KEY). Default: the pipeline's source.",
  },
};

/**
 * --file: `-` is stdin, an http(s) URL is fetched, an sftp:// or s3:// address is one remote
 * object (its connection settings from `base`, the pipeline's source, when on the same server),
 * anything else is a local file.
 */
export async function sourceOf(
  file: string | undefined,
  base?: { sftp?: SftpSpec; s3?: S3Spec },
): Promise<SourceSpec | undefined> {
  if (file === undefined) return undefined;
  if (file === '-') return { stdin: true };
  if (/^https?:\/\//i.test(file)) return { url: file };
  // Loaded only now: the connectors weigh, and `--help` needs none of them.
  const { isRemoteAddress, remoteSpecOf } = await import('../../connectors/index.js');
  if (isRemoteAddress(file)) return remoteSpecOf(file, base);
  // Read from the resolved path; shown (records, dead letters, reports) as given.
  return { file: resolve(file), name: file };
}

export const LOOKUP_OPTION: Record<string, OptionSpec> = {
  lookup: {
    type: 'string',
    multiple: true,
    placeholder: 'NAME=PATH',
    description: "Read the file lookup NAME from PATH for this run instead of the pipeline's file.",
  },
};

/** --lookup NAME=PATH, repeatable -> name -> absolute path. */
export function lookupFiles(pairs: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      throw new UsageError(
        `--lookup takes NAME=PATH (e.g. --lookup productNames=ProductTexts.csv), got "${pair}".`,
      );
    }
    files[pair.slice(0, eq)] = resolve(pair.slice(eq + 1));
  }
  return files;
}

export function allowDeletes(text: string | undefined): AllowDeletes {
  if (text === undefined) return false;
  if (text === 'all') return true;
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`--allow-deletes takes a number of deletes or "all", got "${text}".`);
  }
  return Number(text);
}
