/**
 * The audit trail: every operator action, from the console or the command line (who, what, when, on what),
 * newest first, the last AUDIT_KEPT of them, kept in Redis beside the runs it concerns.
 */
import { userInfo } from 'node:os';
import type { RedisClient } from '../redis/index.js';
import { splitPipelineName } from '../config/index.js';
import type { DeliveryKeys } from './keys.js';
import { pipelineOfRunId } from './run-id.js';

const AUDIT_KEPT = 10_000;

/** Who acts from the command line: `cli:<the system user>` (it has no console token). */
export function cliActor(env: NodeJS.ProcessEnv = process.env): string {
  let user = env.USER ?? env.USERNAME;
  try {
    user ??= userInfo().username;
  } catch {
    user ??= 'unknown'; // no passwd entry (a container's random uid)
  }
  return `cli:${user}`;
}

export interface AuditEntry {
  /** ISO time. */
  at: string;
  /** The token's name. */
  actor: string;
  /** e.g. run.cancel, schedule.pause. */
  action: string;
  /** What it was done to: a run id, a pipeline. */
  target: string;
  /** The platform of the pipeline it concerns (its qualified name's), for a pipeline or run action. */
  platform?: string;
  /** For a refusal: the error's code (FERRY_FOUR_EYES...). */
  reason?: string;
}

export async function recordAudit(
  redis: RedisClient,
  keys: DeliveryKeys,
  entry: Omit<AuditEntry, 'at'>,
): Promise<void> {
  const line: AuditEntry = { at: new Date().toISOString(), ...entry };
  // An action on a run (cancel, resume, undo, allow: `RUN` or `RUN -> RUN`) is on its platform.
  const run = pipelineOfRunId(entry.target.split(' ')[0] ?? '');
  if (line.platform === undefined && run !== undefined) {
    line.platform = splitPipelineName(run).platform;
  }
  await redis
    .multi()
    .lpush(keys.audit, JSON.stringify(line))
    .ltrim(keys.audit, 0, AUDIT_KEPT - 1)
    .exec();
}

export async function readAudit(
  redis: RedisClient,
  keys: DeliveryKeys,
  limit: number,
): Promise<AuditEntry[]> {
  return (await redis.lrange(keys.audit, 0, limit - 1)).map((l) => JSON.parse(l) as AuditEntry);
}

/** The newest audited action on `target` (one of a comma-separated selection counts), if any. */
export async function lastAuditOf(
  redis: RedisClient,
  keys: DeliveryKeys,
  target: string,
  searched = 1_000,
): Promise<AuditEntry | undefined> {
  return (await readAudit(redis, keys, searched)).find((e) => e.target.split(',').includes(target));
}
