/**
 * After a run's last job settled: its working keys (stage lists, payloads, settled and counted sets) go; the
 * record, errors, changes (what it planned per key) and rejected rows by key are kept for RETENTION_S, and the report
 * is written. Safe to call more than once (the worker that settled the last job and a
 * `ferry run --wait` may both do it).
 */
import type { RedisClient } from '../redis/index.js';
import type { DeadLetterStore } from './dead-letters/dead-letter-store.js';
import type { DeliveryKeys } from './keys.js';
import { buildRunReport, writeRunReport, type RunReport } from './run-report.js';

/** How long a finished run's record and errors stay in Redis. */
export const RETENTION_S = 30 * 24 * 3600;

export async function finishRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  dlq: DeadLetterStore,
  runId: string,
  reportsDir: string,
): Promise<RunReport> {
  const stageCount = Number((await redis.hget(keys.run(runId), 'stageCount')) ?? 0);
  const multi = redis
    .multi()
    .del(keys.runSettled(runId), keys.runCounted(runId), keys.runPayloads(runId));
  for (let s = 0; s < stageCount; s += 1) multi.del(keys.runStage(runId, s));
  await multi
    .expire(keys.run(runId), RETENTION_S)
    .expire(keys.runErrors(runId), RETENTION_S)
    .expire(keys.runChanges(runId), RETENTION_S)
    .expire(keys.runRejected(runId), RETENTION_S)
    .exec();
  return await writeRunReport(await buildRunReport(redis, keys, dlq, runId), reportsDir);
}
