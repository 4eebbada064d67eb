/**
 * Refusal counts: how often the platform refused a change of an entity planned on its committed
 * version. A platform that keeps its answer per idempotency key replays a refusal to every request
 * that carries the same key; a refused change leaves the entity's version where it was, so the next
 * run would plan the very same key and get the old refusal back, even after the cause was fixed on
 * the platform. The planner puts the count into the key (pipeline/planner/idempotency-key.ts): the
 * change is sent again as a new request, and is refused again only if the platform still refuses it.
 */
import { type RedisClient, runScript } from '../redis/index.js';
import { refusedKey } from './keys.js';
import { RECORD_REFUSALS } from './scripts/record-refusals.js';
import type { StateItem } from './types.js';

/** Refusals of the change of `key` planned on `baseVersion` (0 when none). */
export type RefusalCount = (resource: string, key: string, baseVersion: number) => number;

export interface RefusalLog {
  /** Counts one refusal for each item (a change the platform answered with a definite no). */
  record(pipeline: string, items: readonly StateItem[]): Promise<void>;
  /** The counts of a pipeline's resources, read once before planning. */
  load(pipeline: string, resources: readonly string[]): Promise<RefusalCount>;
}

const NONE: RefusalCount = () => 0;

export function createRefusalLog(redis: RedisClient, prefix: string): RefusalLog {
  return {
    async record(pipeline, items) {
      if (items.length === 0) return;
      const byResource = new Map<string, string[]>();
      for (const item of items) {
        const pairs = byResource.get(item.resource) ?? [];
        pairs.push(item.key, String(item.baseVersion));
        byResource.set(item.resource, pairs);
      }
      for (const [resource, pairs] of byResource) {
        const refused = refusedKey(prefix, pipeline, resource);
        await runScript(redis, RECORD_REFUSALS, { refused }, { items: pairs });
      }
    },

    async load(pipeline, resources) {
      const counts = new Map<string, Map<string, string>>();
      for (const resource of new Set(resources)) {
        const all = await redis.hgetall(refusedKey(prefix, pipeline, resource));
        const keys = Object.keys(all);
        if (keys.length > 0) counts.set(resource, new Map(keys.map((k) => [k, all[k] as string])));
      }
      if (counts.size === 0) return NONE;
      return (resource, key, baseVersion) => {
        const value = counts.get(resource)?.get(key);
        if (value === undefined) return 0;
        const sep = value.indexOf('|');
        return Number(value.slice(0, sep)) === baseVersion ? Number(value.slice(sep + 1)) : 0;
      };
    },
  };
}
