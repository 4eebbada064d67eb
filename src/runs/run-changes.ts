/**
 * What a run planned for each key, for the entity trace: the hash `keys.runChanges`, field
 * `<operationId>:<key>` -> the change (upsert, patch or delete). The stage writer adds a chunk's
 * fields in the transaction that writes its payloads; the hash then lives as long as the run's
 * record (finish-run.ts). Operation ids hold no `:`, so a field names one key whatever it holds.
 */
import type { ChangeKind } from '../pipeline/index.js';
import type { RedisClient } from '../redis/index.js';
import type { JobPayload } from './job-data.js';
import type { DeliveryKeys } from './keys.js';

function changeField(operationId: string, key: string): string {
  return `${operationId}:${key}`;
}

/** Adds each item of the job to `fields`, as field and value one after the other (HSET's). */
export function addChangeFields(fields: string[], job: JobPayload): void {
  for (const request of job.requests) {
    for (const item of request.items)
      fields.push(changeField(request.operationId, item.key), item.kind);
  }
}

export interface PlannedChange {
  operationId: string;
  change: ChangeKind;
}

/**
 * What each run planned for `key` among its operations, run for run (one round trip). A run
 * recorded before changes were kept, or past retention, has none.
 */
export async function plannedChanges(
  redis: RedisClient,
  keys: DeliveryKeys,
  runs: readonly { id: string; operationIds: readonly string[] }[],
  key: string,
): Promise<PlannedChange[][]> {
  const asked = runs.filter((r) => r.operationIds.length > 0);
  const pipeline = redis.pipeline();
  for (const run of asked) {
    pipeline.hmget(keys.runChanges(run.id), ...run.operationIds.map((o) => changeField(o, key)));
  }
  const replies = asked.length > 0 ? ((await pipeline.exec()) ?? []) : [];
  const byRun = new Map<string, PlannedChange[]>();
  asked.forEach((run, i) => {
    const [error, values] = replies[i] ?? [null, []];
    if (error) throw error;
    const found: PlannedChange[] = [];
    (values as (string | null)[]).forEach((value, j) => {
      if (value !== null) {
        found.push({ operationId: run.operationIds[j] as string, change: value as ChangeKind });
      }
    });
    byRun.set(run.id, found);
  });
  return runs.map((r) => byRun.get(r.id) ?? []);
}
