import { randomBytes } from 'node:crypto';
import { type RedisClient, runScript } from '../redis/index.js';
import { NEXT_VERSION } from './scripts/next-version.js';
import type { DeliveryKeys } from './keys.js';

/** `<pipeline>-<UTC yyyymmddThhmmss>-<4 hex>`: sortable, readable, unique. */
export function newRunId(pipeline: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `${pipeline}-${stamp}-${randomBytes(2).toString('hex')}`;
}

/** The pipeline (qualified name) a run id was made for; undefined for what is not a run id. */
export function pipelineOfRunId(runId: string): string | undefined {
  return /^(.+)-\d{8}T\d{6}-[0-9a-f]{4}$/.exec(runId)?.[1];
}

/** The version a run's items carry (scripts/next-version.ts). */
export async function nextVersion(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<number> {
  return await runScript(redis, NEXT_VERSION, { versions: keys.versions }, { pipeline });
}
