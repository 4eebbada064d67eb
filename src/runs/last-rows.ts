import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';
import { readRunRecords } from './run-index.js';

/** Runs looked at for the last sync run. */
const LOOK_BACK = 50;

/**
 * Rows read by the pipeline's last sync run that was not stopped (succeeded, partial, failed or
 * cancelled: its export was read whole), for the value guard `rows`; none when there is none.
 * Reads the pipeline's run index as it is, never filling it: `ferry plan` writes nothing.
 */
export async function lastSyncRows(
  redis: RedisClient,
  keys: DeliveryKeys,
  pipeline: string,
): Promise<number | undefined> {
  const ids = await redis.zrevrange(keys.pipelineRunIndex(pipeline), 0, LOOK_BACK - 1);
  const runs = await readRunRecords(redis, keys, ids);
  const last = runs.find(
    (r) =>
      r !== undefined &&
      r.kind === 'sync' &&
      r.status !== 'guard_stopped' &&
      r.status !== 'skipped' &&
      r.rows > 0,
  );
  return last?.rows;
}
