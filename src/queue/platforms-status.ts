/**
 * What `ferry platforms` shows: each platform of the installation (`default` first) as it is
 * spoken to (its address, never its credential), its pinned description, the pipelines whose
 * delivery to it is blocked and the last run of each of its pipelines (docs/PLATFORMS.md).
 */
import {
  type FerryConfig,
  platformConfig,
  platformNames,
  splitPipelineName,
} from '../config/index.js';
import { allPipelineTargets } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import {
  type DeliveryKeys,
  lastRunOf,
  type LastRun,
  platformKeys,
  readPin,
} from '../runs/index.js';
import { platformUrl } from '../state/index.js';

export interface PlatformBlock {
  /** The name the pipeline runs under on the platform: `catalog@north`. */
  pipeline: string;
  runId: string;
  /** Why (worker/breaker.ts): unauthorized, forbidden, route_not_found, method_not_allowed... */
  reason: string;
  since?: string;
}

export interface PlatformView {
  name: string;
  /** The normalised base URL: scheme, host, port and path (no user or query). */
  baseUrl: string;
  listing: string;
  pinned?: { sha256: string; source: string; version?: string };
  ratePerSecond: number | 'auto';
  blocked?: PlatformBlock[];
  /** The last run (of those that stand for a pipeline) of each pipeline on the platform. */
  lastRuns: LastRun[];
}

const iso = (ms: number): string => new Date(ms).toISOString();

async function blockOf(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<PlatformBlock | undefined> {
  const breaker = await redis.hgetall(keys.breaker(pipeline));
  if (breaker.blocked !== '1') return undefined;
  return {
    pipeline,
    runId: breaker.runId ?? '',
    reason: breaker.reason ?? 'unknown',
    ...(breaker.since ? { since: iso(Number(breaker.since)) } : {}),
  };
}

async function platformView(
  redis: RedisClient,
  keys: DeliveryKeys,
  config: FerryConfig,
  name: string,
  pipelines: string[],
): Promise<PlatformView> {
  const scoped = platformConfig(config, name);
  const pin = await readPin(redis, platformKeys(keys, name));
  const blocked: PlatformBlock[] = [];
  const lastRuns: LastRun[] = [];
  for (const pipeline of pipelines) {
    const block = await blockOf(redis, keys, pipeline);
    if (block) blocked.push(block);
    const last = await lastRunOf(redis, keys, pipeline);
    if (last) lastRuns.push(last);
  }
  return {
    name,
    baseUrl: platformUrl(scoped.interface),
    listing: scoped.interface.listing,
    ...(pin
      ? {
          pinned: {
            sha256: pin.sha256,
            source: pin.source,
            ...(pin.version !== undefined ? { version: pin.version } : {}),
          },
        }
      : {}),
    ratePerSecond: scoped.delivery.ratePerSecond,
    ...(blocked.length > 0 ? { blocked } : {}),
    lastRuns,
  };
}

/** Every platform of the config, `default` first, with what Redis holds of each. */
export async function readPlatforms(
  redis: RedisClient,
  keys: DeliveryKeys,
  config: FerryConfig,
): Promise<PlatformView[]> {
  const targets = allPipelineTargets(config);
  const views: PlatformView[] = [];
  for (const name of platformNames(config)) {
    const mine = targets.filter((t) => splitPipelineName(t).platform === name);
    views.push(await platformView(redis, keys, config, name, mine));
  }
  return views;
}
