/**
 * An export's state in Redis: one hash per export pipeline (keys.ts), in the slot of the run
 * records and the pipeline's lock, so one script can check the lock, move the cursor and finish
 * the run.
 *   cursor   the cursor value of the last item exported (absent before the first export)
 *   seq      how many files the export has published ({seq} of the next is seq + 1)
 *   pending  the export being published: its range and file, written before the file appears
 *   runId    the run in progress: a run that finds one still running after taking the lock
 *            records it as failed (its process died)
 * The cursor moves only in `commitExport`, after the file is renamed into place and synced; a
 * process that dies before leaves `pending`, and the next run writes the same range into the
 * same file name before it moves on (run-export.ts).
 */
import { type RedisClient, runScript } from '../redis/index.js';
import { lastSuccessField, runsField, type DeliveryKeys, RETENTION_S } from '../runs/index.js';
import type { CursorStart } from './cursor.js';
import { exportStateKey } from './keys.js';
import { ExportLockLostError } from './errors.js';
import { COMMIT_EXPORT } from './scripts/commit-export.js';
import { FAIL_EXPORT } from './scripts/fail-export.js';
import { SAVE_PENDING_EXPORT } from './scripts/save-pending-export.js';

/** The export a run is publishing: what it read and where it writes, before the file appears. */
export interface PendingExport {
  runId: string;
  /** Where the range starts: after the cursor, or at a --since value (null: the first item). */
  start: CursorStart | null;
  /** The cursor value of the range's last item (null: an empty file, nothing read). */
  after: string | null;
  /** The folder and file name it is published under; a later run re-publishes there. */
  folder: string;
  file: string;
  seq: number;
  records: number;
  items: number;
  sha256: string;
}

export interface ExportState {
  cursor: string | null;
  seq: number;
  pending: PendingExport | undefined;
  runId: string | undefined;
}

export async function readExportState(redis: RedisClient, key: string): Promise<ExportState> {
  const h = await redis.hgetall(key);
  return {
    cursor: h.cursor ?? null,
    seq: Number(h.seq ?? 0),
    pending: h.pending ? (JSON.parse(h.pending) as PendingExport) : undefined,
    runId: h.runId,
  };
}

export interface ExportStore {
  readonly key: string;
  read(): Promise<ExportState>;
  /** Records the range and file about to be published (ExportLockLostError without the lock). */
  savePending(runId: string, pending: PendingExport): Promise<void>;
  /**
   * Moves the cursor (null: unchanged), counts the file, clears `pending` and finishes the run as
   * succeeded with `fields`, in one step, if the run still holds the pipeline's lock.
   */
  commit(
    runId: string,
    cursor: string | null,
    seq: number,
    fields: Record<string, string | number>,
  ): Promise<void>;
  /** Finishes a run still recorded as running as failed, with its reason. */
  fail(runId: string, fields: Record<string, string | number>): Promise<boolean>;
}

export function exportStore(
  redis: RedisClient,
  keys: DeliveryKeys,
  prefix: string,
  pipeline: string,
): ExportStore {
  const key = exportStateKey(prefix, pipeline);
  const lock = keys.activeRun(pipeline);
  const flat = (fields: Record<string, string | number>): (string | number)[] =>
    Object.entries(fields).flat();
  return {
    key,
    read: () => readExportState(redis, key),
    async savePending(runId, pending) {
      const saved = await runScript(
        redis,
        SAVE_PENDING_EXPORT,
        { lock, export: key },
        { runId, pending: JSON.stringify(pending) },
      );
      if (!saved) throw new ExportLockLostError(pipeline, runId);
    },
    async commit(runId, cursor, seq, fields) {
      const now = Date.now();
      const done = await runScript(
        redis,
        COMMIT_EXPORT,
        { lock, export: key, run: keys.run(runId), metrics: keys.metrics },
        {
          runId,
          cursor: cursor ?? '',
          seq,
          now,
          retentionS: RETENTION_S,
          runsField: runsField(pipeline, 'succeeded', 'export'),
          lastSuccessField: lastSuccessField(pipeline),
          fields: flat({ ...fields, status: 'succeeded', finishedAt: now }),
        },
      );
      if (!done) throw new ExportLockLostError(pipeline, runId);
    },
    async fail(runId, fields) {
      return await runScript(
        redis,
        FAIL_EXPORT,
        { export: key, run: keys.run(runId), metrics: keys.metrics },
        {
          runId,
          retentionS: RETENTION_S,
          runsField: runsField(pipeline, 'failed', 'export'),
          fields: flat({ ...fields, status: 'failed', finishedAt: Date.now() }),
        },
      );
    },
  };
}
