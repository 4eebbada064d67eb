/**
 * Following a run to its end: its record is read every UPDATE_MS and handed to `onUpdate` (the
 * progress display), and between those reads only its status, every POLL_MS, so that `--wait`
 * ends soon after the run does; until the run is finished or the signal aborts (Ctrl-C stops
 * following; the run goes on in the queue).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';
import { isFinished, isFinishedStatus, type RunRecord, type RunStatus } from './run-record.js';
import { loadRun } from './run-report.js';

// The status is one HGET; the whole record an HGETALL of dozens of fields, parsed (~2.5% of the
// CPU of a run's process when it was read every POLL_MS).
const POLL_MS = 25;
const UPDATE_MS = 250;

export async function followRun(
  redis: RedisClient,
  keys: DeliveryKeys,
  runId: string,
  onUpdate: (run: RunRecord) => void,
  signal?: AbortSignal,
): Promise<RunRecord> {
  for (;;) {
    const run = await loadRun(redis, keys, runId);
    onUpdate(run);
    if (isFinished(run) || signal?.aborted) return run;
    const update = Date.now() + UPDATE_MS;
    do {
      await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
      if (signal?.aborted) break;
      // None: the record vanished; loadRun says so.
      const status = await redis.hget(keys.run(runId), 'status');
      if (status === null || isFinishedStatus(status as RunStatus)) break;
    } while (Date.now() < update);
  }
}
