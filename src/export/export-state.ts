/**
 * An export's state in Redis: one hash per export pipeline, `<prefix>:{q}:export:<pipeline>`,
 * beside the run records and the pipeline's lock (the `{q}` hash tag keeps them in one Redis
 * Cluster slot, so one script can check the lock, move the cursor and finish the run).
 *   cursor   the cursor value of the last item exported (absent before the first export)
 *   seq      how many files the export has published ({seq} of the next is seq + 1)
 *   pending  the export being published: its range and file, written before the file appears
 *   runId    the run in progress: a run that finds one still running after taking the lock
 *            records it as failed (its process died)
 * The cursor moves only in `commitExport`, after the file is renamed into place and synced; a
 * process that dies before leaves `pending`, and the next run writes the same range into the
 * same file name before it moves on (run-export.ts).
 */
import { type RedisClient, luaScript, runLua } from '../redis/index.js';
import { lastSuccessField, runsField, type DeliveryKeys, RETENTION_S } from '../runs/index.js';
import type { CursorStart } from './cursor.js';
import { ExportLockLostError } from './errors.js';

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

export function exportStateKey(prefix: string, pipeline: string): string {
  return `${prefix}:{q}:export:${pipeline}`;
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

const SAVE_PENDING = luaScript(
  `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], 'pending', ARGV[2])
return 1`,
  2,
);

const COMMIT = luaScript(
  `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[2], 'cursor', ARGV[2]) end
redis.call('HSET', KEYS[2], 'seq', ARGV[3])
redis.call('HDEL', KEYS[2], 'pending', 'runId')
redis.call('HSET', KEYS[3], unpack(ARGV, 8))
redis.call('EXPIRE', KEYS[3], ARGV[5])
redis.call('HINCRBY', KEYS[4], ARGV[6], 1)
redis.call('HSET', KEYS[4], ARGV[7], ARGV[4])
return 1`,
  4,
);

const FAIL = luaScript(
  `if redis.call('HGET', KEYS[1], 'runId') == ARGV[1] then redis.call('HDEL', KEYS[1], 'runId') end
if redis.call('HGET', KEYS[2], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 4))
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
return 1`,
  3,
);

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
      const saved = await runLua(
        redis,
        SAVE_PENDING,
        [lock, key],
        [runId, JSON.stringify(pending)],
      );
      if (saved !== 1) throw new ExportLockLostError(pipeline, runId);
    },
    async commit(runId, cursor, seq, fields) {
      const now = Date.now();
      const done = await runLua(
        redis,
        COMMIT,
        [lock, key, keys.run(runId), keys.metrics],
        [
          runId,
          cursor ?? '',
          seq,
          now,
          RETENTION_S,
          runsField(pipeline, 'succeeded'),
          lastSuccessField(pipeline),
          ...flat({ ...fields, status: 'succeeded', finishedAt: now }),
        ],
      );
      if (done !== 1) throw new ExportLockLostError(pipeline, runId);
    },
    async fail(runId, fields) {
      const done = await runLua(
        redis,
        FAIL,
        [key, keys.run(runId), keys.metrics],
        [
          runId,
          RETENTION_S,
          runsField(pipeline, 'failed'),
          ...flat({ ...fields, status: 'failed', finishedAt: Date.now() }),
        ],
      );
      return done === 1;
    },
  };
}
