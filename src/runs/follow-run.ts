/**
 * Following a run to its end: its record is read every POLL_MS and handed to `onUpdate` (the
 * progress display) until the run is finished or the signal aborts (Ctrl-C stops following; the
 * run goes on in the queue).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisClient } from '../redis/index.js';
import type { DeliveryKeys } from './keys.js';
import { isFinished, type RunRecord } from './run-record.js';
import { loadRun } from './run-report.js';

// A read of the record costs ~0.1 ms; polling often makes `--wait` end soon after the run does.
const POLL_MS = 25;

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
    await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}
