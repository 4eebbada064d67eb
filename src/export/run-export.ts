/**
 * One export run (`ferry export NAME`, or a schedule's tick): exactly once, whatever happens.
 *
 *   lock the pipeline (a lease: a killed process frees it within LOCK_MS)
 *   -> an earlier run still recorded as running died: record it failed
 *   -> record this run (running), as `ferry runs` and the console list runs
 *   -> read the range: after the cursor (or from --since), or an earlier run's pending range
 *   -> rows -> a temporary file in the target folder, synced
 *   -> `pending` {range, file name, checksum} saved in Redis, still holding the lock
 *   -> rename the file into place, sync the folder (then the manifest the same way)
 *   -> move the cursor, clear `pending`, finish the run: one script, only while holding the lock
 *
 * A crash before `pending` is saved publishes nothing: the next run reads the range again. A crash
 * after it finds `pending`: the next run reads exactly that range again and publishes it under the
 * same name (left as it is when the file there has the same checksum), then moves the cursor;
 * items that arrived meanwhile wait for the run after. So no item is skipped, and none reaches a
 * second file. A dry run reads and reports without any of the writes.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FerryConfig } from '../config/index.js';
import { isFerryError, UsageError, type FerryError } from '../errors/index.js';
import { createInterfaceClient } from '../interface/index.js';
import type { Logger } from '../logging/index.js';
import { loadExportPipeline, pipelineTargets, type ExportDefinition } from '../pipeline/index.js';
import { type RedisClient, acquireLease } from '../redis/index.js';
import {
  RunActiveError,
  deliveryKeys,
  type DeliveryKeys,
  indexRun,
  newRunId,
  type ExportSummary,
  type Trigger,
  pipelineConfig,
} from '../runs/index.js';
import { laterCursor, type CursorStart } from './cursor.js';
import { ExportFileExistsError, ExportInterruptedError, ExportWriteError } from './errors.js';
import {
  exportStore,
  type ExportState,
  type ExportStore,
  type PendingExport,
} from './export-state.js';
import { fileNameOf } from './file-name.js';
import {
  hashSink,
  publish,
  removeStaleTemps,
  sha256OfFile,
  tempFileSink,
  tempName,
  writeWhole,
} from './file-sink.js';
import type { ItemReader, ReadRange } from './read-items.js';
import { writeRows, type WrittenRows } from './write-rows.js';

/** The pipeline lock's lease: renewed every third of it while the run lives. */
const LOCK_MS = 6_000;

export interface ExportOptions {
  config: FerryConfig;
  redis: RedisClient;
  logger: Logger;
  pipeline: string;
  /** The folder to write to instead of target.folder (`--out`). */
  out?: string;
  /** Start at this cursor value (inclusive) instead of after the cursor (`--since`). */
  since?: string;
  /** Read and report; write no file and move nothing (`--dry-run`). */
  dryRun?: boolean;
  trigger?: Trigger;
  startedBy?: string;
  scheduledAt?: number;
  lateSeconds?: number;
  signal?: AbortSignal;
}

/** What `ferry export --json` prints (docs/EXPORTS.md, `ferry export`). */
export interface ExportResult extends ExportSummary {
  runId: string;
  pipeline: string;
  status: 'succeeded' | 'failed';
  dryRun: boolean;
  /** An earlier run's export this run published again (that run died before its cursor moved). */
  recovered?: { runId: string };
  requests: number;
  startedAt: string;
  seconds: number;
  error?: { code: string; message: string };
}

interface Plan {
  range: ReadRange;
  folder: string;
  before: string | null;
  /** The pending export being published again, if any. */
  pending: PendingExport | undefined;
}

function planOf(definition: ExportDefinition, state: ExportState, options: ExportOptions): Plan {
  const { pending } = state;
  if (pending) {
    return {
      range:
        pending.after === null
          ? { maxItems: 0 }
          : { start: pending.start ?? undefined, stop: pending.after },
      folder: pending.folder,
      before: pending.start?.value ?? null,
      pending,
    };
  }
  const start: CursorStart | undefined =
    options.since !== undefined
      ? { value: options.since, inclusive: true }
      : state.cursor !== null
        ? { value: state.cursor, inclusive: false }
        : undefined;
  return {
    range: { start, maxItems: definition.read.maxItems },
    folder: resolve(options.out ?? definition.target.folder),
    before: start?.value ?? null,
    pending: undefined,
  };
}

interface RunContext {
  options: ExportOptions;
  definition: ExportDefinition;
  keys: DeliveryKeys;
  store: ExportStore;
  runId: string;
  startedAt: number;
  requests: number;
}

function readerOf(ctx: RunContext): { reader: ItemReader; close(): Promise<void> } {
  const { config, logger, signal } = ctx.options;
  const client = createInterfaceClient(config.interface, {
    logger,
    ...(config.platform ? { platform: config.platform } : {}),
  });
  const { read } = ctx.definition;
  return {
    reader: {
      client,
      delivery: config.delivery,
      operationId: read.operation,
      pageSize: read.pageSize,
      query: read.query,
      cursor: read.cursor,
      ...(signal ? { signal } : {}),
      onRequest: () => {
        ctx.requests += 1;
      },
    },
    close: () => client.close(),
  };
}

function nameOf(ctx: RunContext, state: ExportState, written: WrittenRows): string {
  const { definition, runId, startedAt } = ctx;
  return fileNameOf(definition.target.fileParts, {
    now: startedAt,
    timeZone: definition.target.timeZone,
    seq: state.seq + 1,
    from: written.first,
    to: written.last,
    pipeline: definition.name,
    runId,
  });
}

/** Whether the run writes a file for what it read. */
function writesFile(definition: ExportDefinition, plan: Plan, written: WrittenRows): boolean {
  return plan.pending !== undefined || written.items > 0 || definition.target.emptyFile;
}

function result(
  ctx: RunContext,
  plan: Plan,
  fields: Pick<ExportResult, 'status' | 'records' | 'items' | 'files'> & {
    after: string | null;
    error?: FerryError;
  },
): ExportResult {
  const out: ExportResult = {
    runId: ctx.runId,
    pipeline: ctx.definition.name,
    status: fields.status,
    dryRun: ctx.options.dryRun === true,
    operation: ctx.definition.read.operation,
    records: fields.records,
    items: fields.items,
    files: fields.files,
    cursor: { before: plan.before, after: fields.after },
    requests: ctx.requests,
    startedAt: new Date(ctx.startedAt).toISOString(),
    seconds: (Date.now() - ctx.startedAt) / 1000,
  };
  if (plan.pending) out.recovered = { runId: plan.pending.runId };
  if (fields.error) out.error = { code: fields.error.code, message: fields.error.message };
  return out;
}

async function dryRun(ctx: RunContext, state: ExportState): Promise<ExportResult> {
  const plan = planOf(ctx.definition, state, ctx.options);
  const { reader, close } = readerOf(ctx);
  try {
    const sink = hashSink();
    const written = await writeRows(ctx.definition, reader, plan.range, sink);
    const { sha256 } = await sink.finish();
    const files = writesFile(ctx.definition, plan, written)
      ? [
          {
            path: join(plan.folder, plan.pending?.file ?? nameOf(ctx, state, written)),
            records: written.records,
            sha256,
          },
        ]
      : [];
    const after = plan.pending ? plan.pending.after : laterCursor(state.cursor, written.last);
    return result(ctx, plan, { status: 'succeeded', ...written, files, after });
  } finally {
    await close();
  }
}

/** Reads, writes and publishes the plan's range; moves the cursor. */
async function exportOnce(ctx: RunContext, state: ExportState, plan: Plan): Promise<ExportResult> {
  const { definition, runId, store } = ctx;
  const { folder } = plan;
  const temp = join(folder, tempName(runId, 'rows'));
  await removeStaleTemps(folder, definition.name);
  const sink = await tempFileSink(folder, temp);
  let written: WrittenRows;
  let sha256: string;
  const { reader, close } = readerOf(ctx);
  try {
    written = await writeRows(definition, reader, plan.range, sink);
    ({ sha256 } = await sink.finish());
  } catch (error) {
    await sink.discard();
    throw error;
  } finally {
    await close();
  }
  const summary = (files: ExportSummary['files'], after: string | null): ExportSummary => ({
    operation: definition.read.operation,
    records: written.records,
    items: written.items,
    files,
    cursor: { before: plan.before, after },
  });
  const finish = async (cursor: string | null, seq: number, files: ExportSummary['files']) => {
    const after = laterCursor(state.cursor, cursor);
    await store.commit(runId, cursor === null ? null : after, seq, {
      rows: written.records,
      [`op:${definition.read.operation}:planned`]: written.records,
      [`op:${definition.read.operation}:delivered`]: written.records,
      export: JSON.stringify(summary(files, after)),
    });
    return result(ctx, plan, { status: 'succeeded', ...written, files, after });
  };

  if (!writesFile(definition, plan, written)) {
    await sink.discard();
    return await finish(null, state.seq, []);
  }
  const file = plan.pending?.file ?? nameOf(ctx, state, written);
  const path = join(folder, file);
  const seq = plan.pending?.seq ?? state.seq + 1;
  const after = plan.pending ? plan.pending.after : (written.last ?? state.cursor);
  try {
    if (!plan.pending && existsSync(path)) throw new ExportFileExistsError(definition.name, path);
    await store.savePending(runId, {
      runId,
      start: plan.range.start ?? null,
      after,
      folder,
      file,
      seq,
      records: written.records,
      items: written.items,
      sha256,
    });
    // A pending file already in place with these very bytes is left as it is.
    if (plan.pending && (await sha256OfFile(path)) === sha256) await sink.discard();
    else await publish(folder, temp, path);
  } catch (error) {
    await sink.discard();
    throw error;
  }
  if (definition.target.manifest) {
    await writeWhole(
      folder,
      join(folder, tempName(runId, 'sha256')),
      `${path}.sha256`,
      `${sha256}  ${file}\n`,
    );
  }
  const files = [{ path, records: written.records, sha256 }];
  return await finish(after, seq, files);
}

function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

function startFields(ctx: RunContext): Record<string, string | number> {
  const { options, definition, runId, startedAt } = ctx;
  const fields: Record<string, string | number> = {
    id: runId,
    pipeline: definition.name,
    kind: 'export',
    trigger: options.trigger ?? 'cli',
    lane: options.config.delivery.lane,
    status: 'running',
    version: 0,
    rows: 0,
    rejected: 0,
    createdAt: startedAt,
    stages: '[]',
    [`op:${definition.read.operation}:planned`]: 0,
  };
  if (options.startedBy) fields.startedBy = options.startedBy;
  if (options.scheduledAt !== undefined) fields.scheduledAt = options.scheduledAt;
  if (options.lateSeconds !== undefined) fields.lateSeconds = options.lateSeconds;
  return fields;
}

export async function runExport(given: ExportOptions): Promise<ExportResult> {
  const { redis } = given;
  const keys = deliveryKeys(given.config.redis.prefix);
  // Read through the contract's bindings (path parameters, listings) like every run.
  // On the platform it reads from: `orders` with `platform: north` is `orders@north`.
  const [pipeline = given.pipeline] = pipelineTargets(given.pipeline, given.config);
  const config = await pipelineConfig(given.config, pipeline, redis, keys);
  const options = { ...given, pipeline, config };
  const definition = loadExportPipeline(options.pipeline, config);
  const store = exportStore(redis, keys, config.redis.prefix, definition.name);
  const ctx: RunContext = {
    options,
    definition,
    keys,
    store,
    runId: newRunId(definition.name),
    startedAt: Date.now(),
    requests: 0,
  };
  if (options.dryRun) return await dryRun(ctx, await store.read());

  const lockKey = keys.activeRun(definition.name);
  const lease = await acquireLease(redis, lockKey, LOCK_MS, ctx.runId);
  if (!lease) throw new RunActiveError(definition.name, (await redis.get(lockKey)) ?? 'unknown');
  try {
    const state = await store.read();
    if (state.pending && options.since !== undefined) {
      throw new UsageError(
        `Export "${definition.name}" has an unfinished export (run ${state.pending.runId}, ` +
          `file ${state.pending.file}) to publish first: run it without --since once.`,
      );
    }
    if (state.runId) {
      await store.fail(state.runId, {
        reason: 'FERRY_INTERRUPTED: the process ended before the export finished',
      });
    }
    const plan = planOf(definition, state, options);
    const start = indexRun(
      redis.multi().hset(keys.run(ctx.runId), startFields(ctx)),
      keys,
      { id: ctx.runId, pipeline: definition.name },
      ctx.startedAt,
    ).hset(store.key, 'runId', ctx.runId);
    await start.exec();
    try {
      const done = await exportOnce(ctx, state, plan);
      options.logger.info(
        { runId: ctx.runId, records: done.records, files: done.files.map((f) => f.path) },
        'export finished',
      );
      return done;
    } catch (caught) {
      const error =
        options.signal?.aborted && !(caught instanceof ExportInterruptedError)
          ? new ExportInterruptedError(definition.name)
          : isFileSystemError(caught)
            ? new ExportWriteError(definition.name, caught)
            : caught;
      const reason = isFerryError(error) ? `${error.code}: ${error.message}` : String(error);
      await store.fail(ctx.runId, { reason });
      if (!isFerryError(error) || error.exitCode === 2) throw error;
      options.logger.error({ runId: ctx.runId, code: error.code }, error.message);
      return result(ctx, plan, {
        status: 'failed',
        records: 0,
        items: 0,
        files: [],
        after: state.cursor,
        error,
      });
    }
  } finally {
    await lease.release();
  }
}
