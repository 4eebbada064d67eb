/**
 * Every Redis key reconciliation builds, all under `<prefix>:reconcile`. The working sets of one
 * reconciliation or rebuild (keys seen on the platform, the drift found) carry the pipeline's
 * hash tag like its state and expire after a day, in case the command is killed before it
 * removes them.
 */
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/index.js';

export const WORK_TTL_S = 86_400;

export interface WorkKeys {
  /** Keys of one resource seen in the platform's listing (a set). */
  seen(resource: string): string;
  /** Drift of one resource: key -> DriftEntry JSON (a hash). */
  drift(resource: string): string;
  /** A scratch prefix for state copies (repair's check of the guard): `<it>:state:{p}:...`. */
  readonly scratchPrefix: string;
}

export function workKeys(prefix: string, pipeline: string): WorkKeys {
  const id = randomBytes(4).toString('hex');
  const base = `${prefix}:reconcile:{${pipeline}}:${id}`;
  return {
    seen: (resource) => `${base}:seen:${resource}`,
    drift: (resource) => `${base}:drift:${resource}`,
    scratchPrefix: `${prefix}:reconcile-scratch-${id}`,
  };
}

/** The last reconciliation of each pipeline (last-reconciliation.ts). */
export function lastReconciliationKey(prefix: string): string {
  return `${prefix}:reconcile:last`;
}

/**
 * A state prefix nothing was ever committed under, for a plan that must see an empty state
 * (source-items.ts): random, so concurrent commands never share it.
 */
export function emptyStatePrefix(prefix: string): string {
  return `${prefix}:reconcile-empty-${randomBytes(4).toString('hex')}`;
}

/** Removes the working sets of these resources. */
export async function dropWork(
  redis: RedisClient,
  keys: WorkKeys,
  resources: readonly string[],
): Promise<void> {
  const names = resources.flatMap((r) => [keys.seen(r), keys.drift(r)]);
  // One key per command: on a cluster they share a slot anyway, but UNLINK of one key is simplest.
  await Promise.all(names.map((k) => redis.unlink(k)));
}
